import { operation } from '@/lib/platform/contract';
import { EmailSuggestion, EmailSuggestionInput } from './email-suggestion';
import { NoQuery } from './schemas';

export const emailSuggestionOperation = operation({
  method: 'post',
  path: '/v1/signature/email-suggestion',
  tag: 'Signature',
  summary: 'Suggest a correction for a mistyped e-mail address',
  description:
    'For the signer e-mail inputs: `{email}` → `{suggestion}`, the address with its domain corrected when it is close to a common mailbox ' +
    'provider (gmial.com → gmail.com), else null. Nothing is stored or sent; a read scope suffices.',
  scope: 'signature:read',
  query: NoQuery,
  body: EmailSuggestionInput,
  responses: { 200: { description: 'The suggestion, or null.', schema: EmailSuggestion } },
});
