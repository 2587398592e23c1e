import mailSpellChecker from '@zootools/email-spell-checker';
import { z } from 'zod';

/**
 * POST /v1/signature/email-suggestion: « did you mean …? » for a signer's e-mail, before an envelope goes to a
 * mistyped address. @zootools/email-spell-checker is the maintained fork of mailcheck (same algorithm: Sift3 distance
 * to a list of common domains and TLDs, no network); we add the mailbox providers French clients use.
 */
const FRENCH_DOMAINS = [
  'orange.fr',
  'wanadoo.fr',
  'free.fr',
  'sfr.fr',
  'neuf.fr',
  'laposte.net',
  'bbox.fr',
  'numericable.fr',
  'aliceadsl.fr',
  'club-internet.fr',
  'gmx.fr',
  'hotmail.fr',
  'hotmail.com',
  'outlook.fr',
  'outlook.com',
  'live.fr',
  'yahoo.fr',
  'yahoo.com',
  'icloud.com',
  'protonmail.com',
  'proton.me',
];
const DOMAINS = [...new Set([...FRENCH_DOMAINS, ...mailSpellChecker.POPULAR_DOMAINS])];
const SECOND_LEVEL = ['gmail', 'hotmail', 'outlook', 'live', 'yahoo', 'orange', 'wanadoo', 'free', 'sfr', 'laposte', 'icloud'];

export const EmailSuggestionInput = z
  .strictObject({ email: z.string({ error: 'must be a string' }).max(320, 'at most 320 characters').meta({ description: 'The address as typed.' }) })
  .meta({ id: 'EmailSuggestionInput' });

export const EmailSuggestion = z
  .object({
    suggestion: z.string().nullable().meta({ description: 'The corrected address, or null when the address looks right (or is not an address).' }),
  })
  .meta({ id: 'EmailSuggestion' });
export type EmailSuggestion = z.infer<typeof EmailSuggestion>;

/** The likely intended address, or null. Pure: the back-office and the public form call it through the API. */
export function suggestEmail(email: string): EmailSuggestion {
  const typed = email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(typed)) return { suggestion: null };
  const found = mailSpellChecker.run({ email: typed, domains: DOMAINS, secondLevelDomains: SECOND_LEVEL });
  return { suggestion: found && found.full !== typed ? found.full : null };
}
