import { z } from 'zod';
import { IdParams, operation, PathId } from '@/lib/platform/contract';
import { PdfFile, PdfQuery } from '@/lib/domain/pdf';
import { AttachDocumentBody, AttachedDocument, AttachedDocumentList } from './attachments';
import { EnvelopeWithSigners } from './envelope-schemas';
import { FieldsPut, SignatureFieldList } from './fields';
import { RequestedDocumentList, RequestedDocumentsPut } from './requested-documents';
import { NoQuery } from './schemas';

const tag = 'Signature';
const base = '/v1/signature/envelopes/{id}';
const notModified = { description: 'Not modified: the client has this file (If-None-Match).' };

export const listFieldsOperation = operation({
  method: 'get',
  path: `${base}/fields`,
  tag,
  summary: "List the envelope's fields",
  description: 'Positioned in fractions of the page (origin top-left), oldest first, with what the signers filled.',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The fields.', schema: SignatureFieldList } },
});

export const replaceFieldsOperation = operation({
  method: 'put',
  path: `${base}/fields`,
  tag,
  summary: "Replace the envelope's fields (draft only)",
  description:
    'The whole set: each for a signer of the envelope (422 on `fields.<i>.signer_id`), on a page of the document (`fields.<i>.page`), ' +
    'its box within the page (x + width ≤ 1, y + height ≤ 1). An `id` of an existing field keeps it (a text tag stays a tag). 409 `envelope_not_draft` once sent.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: FieldsPut,
  responses: { 200: { description: 'The fields now.', schema: SignatureFieldList } },
  errors: [
    [409, 'envelope_not_draft'],
    [409, 'pdf_not_ready'],
  ],
});

export const listRequestedDocumentsOperation = operation({
  method: 'get',
  path: `${base}/requested-documents`,
  tag,
  summary: 'List the documents the signers are asked to upload',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The requested documents.', schema: RequestedDocumentList } },
});

export const replaceRequestedDocumentsOperation = operation({
  method: 'put',
  path: `${base}/requested-documents`,
  tag,
  summary: 'Replace the requested documents (draft only)',
  description: 'Each for a signer of the envelope (422 on `requested_documents.<i>.signer_id`). 409 `envelope_not_draft` once sent.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: RequestedDocumentsPut,
  responses: { 200: { description: 'The requested documents now.', schema: RequestedDocumentList } },
  errors: [[409, 'envelope_not_draft']],
});

export const listAttachedDocumentsOperation = operation({
  method: 'get',
  path: `${base}/documents`,
  tag,
  summary: 'List the documents attached to the envelope',
  description: 'Annexes sent with the envelope besides the document signed.',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The attached documents, in order.', schema: AttachedDocumentList } },
});

export const attachDocumentOperation = operation({
  method: 'post',
  path: `${base}/documents`,
  tag,
  summary: 'Attach an uploaded document (draft only)',
  description: 'A PDF uploaded with POST /v1/signature/documents. Once per envelope (409 `signature_conflict`); 409 `envelope_not_draft` once sent.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: AttachDocumentBody,
  responses: { 201: { description: 'The attached document.', schema: AttachedDocument } },
  errors: [
    [409, 'envelope_not_draft'],
    [409, 'signature_conflict'],
  ],
});

export const detachDocumentOperation = operation({
  method: 'delete',
  path: `${base}/documents/{document_id}`,
  tag,
  summary: 'Detach a document (draft only)',
  description: 'The uploaded document itself is kept.',
  scope: 'signature:write',
  params: z.object({ id: PathId, document_id: PathId.meta({ description: 'The attached document’s id.' }) }),
  query: NoQuery,
  responses: { 204: { description: 'Detached.' } },
  errors: [[409, 'envelope_not_draft']],
});

export const getOriginalDocumentOperation = operation({
  method: 'get',
  path: `${base}/document`,
  tag,
  summary: 'Download the original PDF',
  description:
    'The PDF the signers sign, as sent (for a quote or invoice not sent yet, its current render). ETag is its SHA-256 (the envelope\'s document_hash once sent): If-None-Match answers 304.',
  scope: 'signature:read',
  params: IdParams,
  query: PdfQuery,
  responses: { 200: { description: 'The PDF.', schema: PdfFile, contentType: 'application/pdf' }, 304: notModified },
  errors: [[409, 'pdf_not_ready']],
});

export const getSignedDocumentOperation = operation({
  method: 'get',
  path: `${base}/signed`,
  tag,
  summary: 'Download the signed PDF (composited and sealed PAdES-B)',
  description:
    'The fields and signatures drawn on the document, a signature page, and the seal of the instance certificate (ETSI.CAdES.detached). ' +
    '409 `signed_document_unavailable` before completion or when the envelope has no positioned field; on a completed envelope whose evidence is not stored, ' +
    '409 `evidence_pending` while the seal job makes it and `evidence_failed` once it failed for good (see the envelope\'s `evidence`; POST …/seal retries).',
  scope: 'signature:read',
  params: IdParams,
  query: PdfQuery,
  responses: { 200: { description: 'The signed PDF.', schema: PdfFile, contentType: 'application/pdf' }, 304: notModified },
  errors: [
    [409, 'signed_document_unavailable'],
    [409, 'evidence_pending'],
    [409, 'evidence_failed'],
  ],
});

export const getProofOperation = operation({
  method: 'get',
  path: `${base}/proof`,
  tag,
  summary: 'Download the proof (evidence report)',
  description:
    'A PDF report (signers, verification methods, times, IP addresses, user agents, document hashes, the whole audit chain) with the same evidence as ' +
    'JSON attached inside it (evidence.json). Once the envelope is completed or declined (409 `proof_unavailable` before); then 409 `evidence_pending` while the seal ' +
    'job builds it and `evidence_failed` once it failed for good (POST …/seal retries).',
  scope: 'signature:read',
  params: IdParams,
  query: PdfQuery,
  responses: { 200: { description: 'The proof PDF.', schema: PdfFile, contentType: 'application/pdf' }, 304: notModified },
  errors: [
    [409, 'proof_unavailable'],
    [409, 'evidence_pending'],
    [409, 'evidence_failed'],
  ],
});

export const retrySealOperation = operation({
  method: 'post',
  path: `${base}/seal`,
  tag,
  summary: 'Retry the seal of a finished envelope',
  description:
    'Queues the seal job again (a fresh set of retries) for a completed or declined envelope whose `evidence` is `failed`, or `pending` with no job left to make it. ' +
    'Fix the cause its `error_code` names first. The answer reads `evidence.status` `pending`; the signed PDF, the proof and the completed e-mails follow once the job succeeds. ' +
    '409 `evidence_not_failed` for any other envelope: not finished, already sealed, or its seal job still queued or running.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The envelope, its evidence pending again.', schema: EnvelopeWithSigners } },
  errors: [[409, 'evidence_not_failed']],
});

export const evidenceOperations = [
  listFieldsOperation,
  replaceFieldsOperation,
  listRequestedDocumentsOperation,
  replaceRequestedDocumentsOperation,
  listAttachedDocumentsOperation,
  attachDocumentOperation,
  detachDocumentOperation,
  getOriginalDocumentOperation,
  getSignedDocumentOperation,
  getProofOperation,
  retrySealOperation,
];
