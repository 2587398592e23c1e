import { IdParams, operation } from '@/lib/platform/contract';
import { SendDocumentInput, SendDocumentResult } from './schemas';

export const sendDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/send',
  tag: 'Invoices',
  summary: 'E-mail a finalized document to its client',
  description:
    "The PDF attached, in the contact's preferred language; email, cc, subject and message apply to this send only (the contact is not " +
    'modified). A finalized document becomes sent (a paid invoice or an accepted quote can be sent again and keeps its status); sent_at is ' +
    'set on the first send; the reminder ladder of the invoice settings is armed (steps already past are skipped); event invoice.sent. ' +
    'The e-mail leaves by a job after the response.',
  scope: 'invoice:write',
  params: IdParams,
  body: SendDocumentInput.prefault({}),
  responses: { 200: { description: 'The document as sent, and the reminders armed.', schema: SendDocumentResult } },
  errors: [
    [409, 'not_finalized'],
    [409, 'invalid_transition'],
    [422, 'no_recipient'],
  ],
});

export const sendingOperations = [sendDocumentOperation];
