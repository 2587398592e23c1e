import { IdParams, operation } from '@/lib/platform/contract';
import { Envelope, EnvelopeCreate, EnvelopeList, EnvelopeListQuery, EnvelopeWithSigners } from './envelope-schemas';
import { MAX_PDF_BYTES, NoQuery, SignatureDocument, SignatureDocumentBody, SignatureListQuery, SignatureTemplate, SignatureTemplateCreate, SignatureTemplateList } from './schemas';

const tag = 'Signature';

export const uploadDocumentOperation = operation({
  method: 'post',
  path: '/v1/signature/documents',
  tag,
  summary: 'Upload a PDF to be signed',
  description:
    'multipart/form-data with the PDF in the field `file` (at most 20 MB). It must really be a PDF (a `%PDF-` header and a document that loads, ' +
    'with at least one page; else 422 `invalid_pdf`) and not be encrypted (422 `pdf_encrypted`). Its page count and SHA-256 are kept. ' +
    'It is read in a bounded worker: more than 500 pages or 500 text tags, or a file that takes more than 20 s or 512 MB to read, is 422 `pdf_too_complex`; ' +
    'when every worker is busy for a minute, 503 `busy` with Retry-After. ' +
    'Text tags `{{type:signer[:label][:required|optional]}}` (e.g. `{{signature:1}}`, `{{text:1:Fonction:required}}`) are read from it: ' +
    'they become the fields of the envelopes made on it; a malformed one is 422 `invalid_text_tag` naming it.',
  scope: 'signature:write',
  query: NoQuery,
  body: SignatureDocumentBody,
  bodyMediaType: 'multipart/form-data',
  // The PDF and the multipart envelope around it.
  maxBodyBytes: MAX_PDF_BYTES + 64 * 1024,
  responses: { 201: { description: 'The stored document.', schema: SignatureDocument } },
  errors: [
    [422, 'invalid_pdf'],
    [422, 'pdf_encrypted'],
    [422, 'invalid_text_tag'],
    [422, 'pdf_too_complex'],
    [503, 'busy'],
  ],
});

export const createTemplateOperation = operation({
  method: 'post',
  path: '/v1/signature/templates',
  tag,
  summary: 'Create a signature template',
  description: 'Presets of an envelope: subject, message, labels and copied recipients.',
  scope: 'signature:write',
  query: NoQuery,
  body: SignatureTemplateCreate,
  responses: { 201: { description: 'The created template.', schema: SignatureTemplate } },
});

export const listTemplatesOperation = operation({
  method: 'get',
  path: '/v1/signature/templates',
  tag,
  summary: 'List signature templates, newest first',
  scope: 'signature:read',
  query: SignatureListQuery,
  responses: { 200: { description: 'A page of templates.', schema: SignatureTemplateList } },
  errors: [[422, 'invalid_cursor']],
});

export const getTemplateOperation = operation({
  method: 'get',
  path: '/v1/signature/templates/{id}',
  tag,
  summary: 'Retrieve a signature template',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The template.', schema: SignatureTemplate } },
});

export const deleteTemplateOperation = operation({
  method: 'delete',
  path: '/v1/signature/templates/{id}',
  tag,
  summary: 'Delete a signature template',
  description: 'Envelopes and forms made from it keep their values.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: { 204: { description: 'Deleted.' } },
});

export const signatureOperations = [uploadDocumentOperation, createTemplateOperation, listTemplatesOperation, getTemplateOperation, deleteTemplateOperation];

export const createEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes',
  tag,
  summary: 'Create a draft envelope with its signers',
  description:
    'The source is an uploaded PDF (`document`) or a finalized quote or invoice of the organisation (`devis`, `facture`). A template fills the subject, ' +
    'message, labels and copied recipients the request omits. `advanced` assurance needs a one-time code for every signer; `sms_otp` needs an E.164 phone. ' +
    'The envelope.created event starts its audit chain.',
  scope: 'signature:write',
  query: NoQuery,
  body: EnvelopeCreate,
  responses: { 201: { description: 'The draft, with its signers.', schema: EnvelopeWithSigners } },
});

export const listEnvelopesOperation = operation({
  method: 'get',
  path: '/v1/signature/envelopes',
  tag,
  summary: 'List envelopes, newest first',
  description: '`q` searches the subject and the signers’ e-mails; `label` is an exact label; `contact_id` the contact of the source quote or invoice. Signers are omitted.',
  scope: 'signature:read',
  query: EnvelopeListQuery,
  responses: { 200: { description: 'A page of envelopes.', schema: EnvelopeList } },
  errors: [[422, 'invalid_cursor']],
});

export const getEnvelopeOperation = operation({
  method: 'get',
  path: '/v1/signature/envelopes/{id}',
  tag,
  summary: 'Retrieve an envelope with its signers and audit chain',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The envelope.', schema: Envelope } },
});

export const deleteEnvelopeOperation = operation({
  method: 'delete',
  path: '/v1/signature/envelopes/{id}',
  tag,
  summary: 'Delete a draft envelope',
  description: 'Only a draft (409 `envelope_not_draft` otherwise): a sent envelope and its audit chain are kept.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: { 204: { description: 'Deleted.' } },
  errors: [[409, 'envelope_not_draft']],
});

export const envelopeOperations = [createEnvelopeOperation, listEnvelopesOperation, getEnvelopeOperation, deleteEnvelopeOperation];
