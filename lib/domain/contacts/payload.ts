import { z } from 'zod';
import { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES } from '@/db/schema/contact-values';
import { issuePath } from '@/lib/platform/errors';
import { COUNTRY_CODES } from './countries';
import { hasControlCharacter } from '@/lib/platform/http/client';
import { withinEmailLengths } from '@/lib/platform/contract/client';

/*
 * The contact payload: what POST /v1/contacts, PATCH and every import row accept. Kept apart from schemas.ts
 * (which needs node:crypto through the pagination) so the back-office can run the very same validation in
 * the browser: the import preview announces exactly the reasons the server will give.
 */

export { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES };

/** Intra-EU VAT prefixes (VIES): Greece is EL, Northern Ireland XI. */
const VAT_PREFIXES = 'AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI';
const VAT_INTRA = new RegExp(`^(${VAT_PREFIXES})[A-Z0-9]{2,13}$`);
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 64;

const emptyToNull = (s: string) => (s === '' ? null : s);
const noNul = (s: string) => !hasControlCharacter(s);
/** An unpaired UTF-16 surrogate ("\ud800" in JSON) is no character at all: jsonb (the event outbox) refuses it. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const wellFormed = (s: string) => !UNPAIRED_SURROGATE.test(s);
const INVALID_CHARACTER = 'contains an unpaired UTF-16 surrogate';

/**
 * Optional free text: trimmed, blank becomes null (CSV cells are often empty strings), NUL and unpaired
 * surrogates refused because PostgreSQL cannot store them (a 422 rather than a 500).
 */
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `at most ${max} characters` })
    .refine(noNul, { error: 'contains a control character' })
    .refine(wellFormed, { error: INVALID_CHARACTER })
    .transform(emptyToNull)
    .nullish();

/** Normalizes then checks a code-like value; blank is null. */
const code = (normalize: (s: string) => string, valid: (s: string) => boolean, message: string, example?: string) =>
  z
    .string({ error: 'must be a string' })
    .transform((s) => normalize(s))
    .refine((s) => s === '' || valid(s), { error: message })
    .transform(emptyToNull)
    .nullish()
    .meta(example ? { examples: [example] } : {});

/** One of `values`; blank is null like the text fields (a CSV cell left empty is no choice, not a wrong one). */
const choice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .enum([...values, ''], { error: message })
    .transform((v) => (v === '' ? null : (v as T[number])))
    .nullish();

const fieldSchemas = {
  type: choice(CONTACT_TYPES, 'must be particulier or professionnel').meta({
    description: 'particulier or professionnel; null, blank or omitted means professionnel.',
  }),
  first_name: text(200).meta({ description: 'First name of a person, at most 200 characters.' }),
  last_name: text(200).meta({ description: 'Last name of a person, at most 200 characters. A particulier needs a first or last name.' }),
  company: text(200).meta({ description: 'Legal name of a business.' }),
  email: code(
    (s) => s.trim().toLowerCase(),
    (s) => withinEmailLengths(s) && z.email().safeParse(s).success,
    'malformed e-mail',
    'jeanne.martin@example.fr',
  ).meta({ description: 'Trimmed and lowercased; the import deduplicates on it.' }),
  phone: text(40).meta({ description: 'Phone number as written, at most 40 characters.' }),
  address: text(500).meta({ description: 'Street address, lines separated by newlines; printed on documents.' }),
  city: text(100).meta({ description: 'City.' }),
  postal_code: text(20).meta({ description: 'Postal code as written.' }),
  country: code(
    (s) => s.trim().toUpperCase(),
    (s) => COUNTRY_CODES.has(s),
    'must be an ISO 3166-1 alpha-2 country code',
    'FR',
  ).meta({ description: 'ISO 3166-1 alpha-2, uppercased; null or omitted means FR.' }),
  siret: code(
    (s) => s.replace(/\s+/g, ''),
    (s) => /^\d{14}$/.test(s),
    'SIRET must be 14 digits',
    '73282932000074',
  ).meta({ description: '14 digits; spaces are removed. The SIREN (first 9 digits) is derived from it.' }),
  vat_intra: code(
    (s) => s.replace(/[\s.-]+/g, '').toUpperCase(),
    (s) => VAT_INTRA.test(s),
    'intra-EU VAT number must be an EU country prefix followed by 2 to 13 letters or digits',
    'FR44732829320',
  ).meta({ description: 'Intra-EU VAT number; spaces, dots and dashes are removed, letters uppercased. Required on B2B intra-EU invoices.' }),
  default_payment_terms: text(1000).meta({ description: 'Pre-fills new documents.' }),
  default_discount_terms: text(1000).meta({ description: 'Early-payment discount terms.' }),
  preferred_language: code(
    (s) => s.trim().toLowerCase(),
    (s) => (LANGUAGES as readonly string[]).includes(s),
    'must be fr or en',
  ).meta({ description: 'fr or en: language of the e-mails and PDFs sent to the contact; null or omitted: French.' }),
  reminder_opt_out: z.boolean({ error: 'must be a boolean' }).nullish().meta({ description: 'Null or omitted means false.' }),
  marketing_consent: z
    .boolean({ error: 'must be a boolean' })
    .nullish()
    .meta({ description: 'Null means never asked. Every change is kept in the consent history.' }),
  consent_source: text(200).meta({ description: 'Where the consent was collected (form, call, import…).' }),
  legal_basis: text(200).meta({ description: 'Lawful basis of the processing (GDPR art. 6).' }),
  lead_status: choice(LEAD_STATUSES, 'must be one of new, qualified, contacted, won, lost').meta({ description: 'Stage of a prospect: new, qualified, contacted, won or lost; null for none.' }),
  lead_score: z
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer' })
    .min(0, { error: 'must be between 0 and 100' })
    .max(100, { error: 'must be between 0 and 100' })
    .nullish()
    .meta({ description: 'Prospect score, an integer from 0 to 100; null for none.' }),
  notes: text(10_000).meta({ description: 'Internal notes, never printed on documents.' }),
  tags: z
    .array(
      z
        .string({ error: 'must be a string' })
        .trim()
        .max(MAX_TAG_LENGTH, { error: `at most ${MAX_TAG_LENGTH} characters` })
        .refine(noNul, { error: 'contains a control character' })
        .refine(wellFormed, { error: INVALID_CHARACTER }),
      { error: 'must be an array of strings' },
    )
    .nullish()
    .transform((tags) => (tags == null ? tags : normalizeTags(tags)))
    .refine((tags) => tags == null || tags.length <= MAX_TAGS, { error: `at most ${MAX_TAGS} distinct tags` })
    .meta({ description: 'Trimmed, deduplicated, blanks dropped; empty when omitted.' }),
};

export type ContactField = keyof typeof fieldSchemas;
export const CONTACT_FIELDS = Object.keys(fieldSchemas) as ContactField[];

/** Trimmed, blanks dropped, first occurrence kept. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

type Fields = { [K in ContactField]?: z.output<(typeof fieldSchemas)[K]> };

/** Reports an unknown key on its own `field` (a misspelt key silently ignored would lose data). */
function strictKeys<T extends Record<string, unknown>>(allowed: readonly string[], value: T, ctx: z.RefinementCtx) {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
  }
}

function pick(value: Record<string, unknown>, keys: readonly string[]) {
  return Object.fromEntries(keys.filter((k) => k in value).map((k) => [k, value[k]]));
}

export const hasNameOrCompany = (c: { first_name?: string | null; last_name?: string | null; company?: string | null }) =>
  Boolean(c.first_name || c.last_name || c.company);

/** The field a "no name nor company" error points at: the one a person of that type would fill. */
export const nameField = (type: string | null | undefined) => (type === 'particulier' ? 'last_name' : 'company');
export const NO_NAME_MESSAGE = 'no name nor company: give first_name or last_name, or company';

/** Create payload and import row. */
export const ContactCreate = z
  .looseObject(fieldSchemas)
  .superRefine((value, ctx) => {
    strictKeys(CONTACT_FIELDS, value, ctx);
    if (!hasNameOrCompany(value)) ctx.addIssue({ code: 'custom', path: [nameField(value.type)], message: NO_NAME_MESSAGE });
  })
  .transform((value) => pick(value, CONTACT_FIELDS) as Fields)
  .meta({
    id: 'ContactCreate',
    description: 'Every field is optional, but a contact needs first_name or last_name, or company. Unknown keys are refused.',
    additionalProperties: false,
  });
export type ContactCreate = z.output<typeof ContactCreate>;

/** PATCH: an omitted key is unchanged, an explicit null clears it (or resets it to its default). */
export const ContactPatch = z
  .looseObject(fieldSchemas)
  .superRefine((value, ctx) => strictKeys(CONTACT_FIELDS, value, ctx))
  .transform((value) => pick(value, CONTACT_FIELDS) as Fields)
  .meta({
    id: 'ContactPatch',
    description:
      'Omitted key: unchanged. Explicit null: cleared; type, country, reminder_opt_out and tags go back to their defaults ' +
      '(professionnel, FR, false, []). The result must still have a name or a company.',
    additionalProperties: false,
  });
export type ContactPatch = z.output<typeof ContactPatch>;

/** The merge-time choices: which contact (target or a source) gives each field. Tags are united; the consent's proof follows it. */
export type ChoosableField = Exclude<ContactField, 'tags' | 'consent_source' | 'legal_basis'>;
export const CHOOSABLE_FIELDS = CONTACT_FIELDS.filter((f): f is ChoosableField => f !== 'tags' && f !== 'consent_source' && f !== 'legal_basis');

export const MAX_IMPORT_ROWS = 1000;

/** An import row's payload, or its first problem for a person reading the summary ("email: malformed e-mail"). */
export function parseImportRow(row: unknown): { payload: ContactCreate } | { reason: string } {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return { reason: 'row is not an object' };
  const result = ContactCreate.safeParse(row);
  if (result.success) return { payload: result.data };
  const issue = result.error.issues[0]!;
  const path = issuePath(issue);
  return { reason: path ? `${path}: ${issue.message}` : issue.message };
}
