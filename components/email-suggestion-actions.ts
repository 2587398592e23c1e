'use server';

import { suggestEmail } from '@/lib/signature';

/**
 * The suggestion of POST /v1/signature/email-suggestion for the signer e-mail inputs of the back-office and of the
 * public signature form. No session is needed (the public form has none): it reads nothing and stores nothing.
 */
export async function suggestEmailAction(email: unknown): Promise<string | null> {
  if (typeof email !== 'string') return null;
  return suggestEmail(email.slice(0, 320)).suggestion;
}
