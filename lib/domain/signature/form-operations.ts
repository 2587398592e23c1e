import { IdParams, operation } from '@/lib/platform/contract';
import { BulkSend, BulkSendResult, SignatureForm, SignatureFormActive, SignatureFormCreate, SignatureFormList, SignatureFormListQuery } from './form-schemas';
import { NoQuery } from './schemas';

const tag = 'Signature';

export const createFormOperation = operation({
  method: 'post',
  path: '/v1/signature/forms',
  tag,
  summary: 'Create a public signature form',
  description:
    'A public page (`url`, `/sign/forms/{slug}`, the slug 128 random bits in base62) where a visitor gives their name and e-mail (and phone for sms_otp), ' +
    'confirms the e-mail with a code, and signs an envelope wrapping `source_document_id` with the template’s presets. Active at creation.',
  scope: 'signature:write',
  query: NoQuery,
  body: SignatureFormCreate,
  responses: { 201: { description: 'The created form.', schema: SignatureForm } },
});

export const listFormsOperation = operation({
  method: 'get',
  path: '/v1/signature/forms',
  tag,
  summary: 'List signature forms, newest first',
  scope: 'signature:read',
  query: SignatureFormListQuery,
  responses: { 200: { description: 'A page of forms.', schema: SignatureFormList } },
  errors: [[422, 'invalid_cursor']],
});

export const getFormOperation = operation({
  method: 'get',
  path: '/v1/signature/forms/{id}',
  tag,
  summary: 'Retrieve a signature form',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The form.', schema: SignatureForm } },
});

export const deleteFormOperation = operation({
  method: 'delete',
  path: '/v1/signature/forms/{id}',
  tag,
  summary: 'Delete a signature form',
  description: 'Its page stops answering; the envelopes already made from it stay.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: { 204: { description: 'Deleted.' } },
});

export const setFormActiveOperation = operation({
  method: 'post',
  path: '/v1/signature/forms/{id}/active',
  tag,
  summary: 'Open or close a signature form',
  description: 'An inactive form’s page says so and accepts nothing.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: SignatureFormActive,
  responses: { 200: { description: 'The updated form.', schema: SignatureForm } },
});

export const bulkSendOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/bulk',
  tag,
  summary: 'Send one document to many recipients, one envelope each',
  description:
    'One mono-signer envelope per recipient (1 to 100), created at once and sent by jobs, so the request answers fast. 200 with `results` in request order ' +
    'even when some recipients failed (their `error` says why). Retrying the same request (same Idempotency-Key, or the same body without one) creates ' +
    'nothing twice: each recipient’s envelope is found again, and a draft left by a failure is sent.',
  scope: 'signature:write',
  query: NoQuery,
  body: BulkSend,
  responses: { 200: { description: 'The result per recipient.', schema: BulkSendResult } },
});

export const formOperations = [createFormOperation, listFormsOperation, getFormOperation, deleteFormOperation, setFormActiveOperation];
export const bulkOperations = [bulkSendOperation];
