import { z } from 'zod';
import { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES } from '@/db/schema/contacts';
import { PageQuery } from '@/lib/http/pagination';
import { Timestamp } from '@/lib/openapi/schemas';
import { COUNTRY_CODES } from './countries';

export { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES };

/** Intra-EU VAT prefixes (VIES): Greece is EL, Northern Ireland XI. */
const VAT_PREFIXES = 'AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI';
const VAT_INTRA = new RegExp(`^(${VAT_PREFIXES})[A-Z0-9]{2,13}$`);
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 64;

const emptyToNull = (s: string) => (s === '' ? null : s);
const noNul = (s: string) => !s.includes('\u0000');

/**
 * Optional free text: trimmed, blank becomes null (CSV cells are often empty strings), NUL refused because
 * PostgreSQL cannot store it (a 422 rather than a 500).
 */
const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `at most ${max} characters` })
    .refine(noNul, { error: 'contains a NUL character' })
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

const fieldSchemas = {
  type: z
    .enum(CONTACT_TYPES, { error: 'must be particulier or professionnel' })
    .nullish()
    .meta({ description: 'particulier or professionnel; null or omitted means professionnel.' }),
  first_name: text(200),
  last_name: text(200),
  company: text(200).meta({ description: 'Legal name of a business.' }),
  email: code(
    (s) => s.trim().toLowerCase(),
    (s) => s.length <= 254 && z.email().safeParse(s).success,
    'malformed e-mail',
    'jeanne.martin@example.fr',
  ).meta({ description: 'Trimmed and lowercased; the import deduplicates on it.' }),
  phone: text(40),
  address: text(500),
  city: text(100),
  postal_code: text(20),
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
  ),
  default_payment_terms: text(1000).meta({ description: 'Pre-fills new documents.' }),
  default_discount_terms: text(1000).meta({ description: 'Early-payment discount terms.' }),
  preferred_language: code(
    (s) => s.trim().toLowerCase(),
    (s) => (LANGUAGES as readonly string[]).includes(s),
    'must be fr or en',
  ),
  reminder_opt_out: z.boolean({ error: 'must be a boolean' }).nullish().meta({ description: 'Null or omitted means false.' }),
  marketing_consent: z
    .boolean({ error: 'must be a boolean' })
    .nullish()
    .meta({ description: 'Null means never asked. Every change is kept in the consent history.' }),
  consent_source: text(200).meta({ description: 'Where the consent was collected (form, call, import…).' }),
  legal_basis: text(200).meta({ description: 'Lawful basis of the processing (GDPR art. 6).' }),
  lead_status: z.enum(LEAD_STATUSES, { error: 'must be one of new, qualified, contacted, won, lost' }).nullish(),
  lead_score: z
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer' })
    .min(0, { error: 'must be between 0 and 100' })
    .max(100, { error: 'must be between 0 and 100' })
    .nullish(),
  notes: text(10_000),
  tags: z
    .array(
      z
        .string({ error: 'must be a string' })
        .trim()
        .max(MAX_TAG_LENGTH, { error: `at most ${MAX_TAG_LENGTH} characters` })
        .refine(noNul, { error: 'contains a NUL character' }),
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

const nullableString = z.string().nullable();

/** The read representation. */
export const Contact = z
  .object({
    id: z.uuid(),
    type: z.enum(CONTACT_TYPES),
    display_name: nullableString.meta({ description: 'company, else first_name + last_name; null once erased.' }),
    first_name: nullableString,
    last_name: nullableString,
    company: nullableString,
    email: nullableString,
    phone: nullableString,
    address: nullableString,
    city: nullableString,
    postal_code: nullableString,
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    siret: nullableString,
    siren: nullableString.meta({ description: 'First 9 digits of the SIRET.' }),
    vat_intra: nullableString,
    default_payment_terms: nullableString,
    default_discount_terms: nullableString,
    preferred_language: z.enum(LANGUAGES).nullable(),
    reminder_opt_out: z.boolean(),
    marketing_consent: z.boolean().nullable(),
    consent_source: nullableString,
    legal_basis: nullableString,
    consent_updated_at: Timestamp.nullable().meta({ description: 'Last change of marketing_consent.' }),
    lead_status: z.enum(LEAD_STATUSES).nullable(),
    lead_score: z.number().int().min(0).max(100).nullable(),
    notes: nullableString,
    tags: z.array(z.string()),
    merged_into_id: z.uuid().nullable().meta({ description: 'Set when this contact was merged into another.' }),
    deleted_at: Timestamp.nullable().meta({ description: 'Soft delete (also set by a merge or an erasure).' }),
    erased_at: Timestamp.nullable().meta({ description: 'Set by an erasure: every personal field is null.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

export const ContactListQuery = PageQuery.extend({
  q: z
    .string()
    .trim()
    .min(1, { error: 'must not be blank' })
    .max(200, { error: 'at most 200 characters' })
    .optional()
    .meta({ description: 'Case- and accent-insensitive substring of first name, last name, company or e-mail.' }),
  type: z.enum(CONTACT_TYPES).optional(),
  lead_status: z.enum(LEAD_STATUSES).optional(),
  tag: z.string().trim().min(1, { error: 'must not be blank' }).optional().meta({ description: 'Exact tag.' }),
  include_deleted: z
    .stringbool({ error: 'must be true or false' })
    .default(false)
    .meta({ description: 'Also list deleted, merged and erased contacts.', type: 'boolean' }),
});
export type ContactListQuery = z.output<typeof ContactListQuery>;

export const MAX_IMPORT_ROWS = 1000;

export const ContactImport = z
  .object({
    contacts: z
      .array(z.unknown(), { error: 'must be an array of contact objects' })
      .meta({ description: `Up to ${MAX_IMPORT_ROWS} rows, each a ContactCreate payload, validated one by one.` }),
  })
  .strict()
  .meta({ id: 'ContactImport' });

export const ImportSummary = z
  .object({
    created: z.number().int().meta({ description: 'Contacts inserted.' }),
    created_ids: z.array(z.uuid()).meta({ description: 'Ids of the inserted contacts, in input order.' }),
    skipped: z.number().int().meta({ description: 'Rows skipped as e-mail duplicates (of a live contact or of an earlier row).' }),
    errors: z
      .array(z.object({ index: z.number().int().meta({ description: 'Zero-based position in contacts.' }), reason: z.string() }))
      .meta({ description: 'Rows failing validation, in request order.' }),
  })
  .meta({ id: 'ImportSummary' });
export type ImportSummary = z.infer<typeof ImportSummary>;

export const DUPLICATE_REASONS = ['email', 'siret', 'name_postal_code'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export const DuplicateGroup = z
  .object({
    reasons: z.array(z.enum(DUPLICATE_REASONS)).meta({
      description: 'Why these contacts look alike: same e-mail, same SIRET, same normalized name and postal code.',
    }),
    contacts: z.array(Contact).meta({ description: 'Newest first; at least two.' }),
  })
  .meta({ id: 'DuplicateGroup' });

export const DuplicatesQuery = PageQuery;

/** The merge-time choices: which contact (target or a source) gives each field. */
const CHOOSABLE_FIELDS = CONTACT_FIELDS.filter((f) => f !== 'tags' && f !== 'consent_source' && f !== 'legal_basis');
export type ChoosableField = Exclude<ContactField, 'tags' | 'consent_source' | 'legal_basis'>;

export const MergeBody = z
  .object({
    source_ids: z
      .array(z.uuid({ error: 'must be a contact id' }), { error: 'must be an array of contact ids' })
      .min(1, { error: 'give at least one contact to merge' })
      .max(20, { error: 'at most 20 contacts per merge' })
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: [i], message: 'listed twice' });
        });
      }),
    fields: z
      .object(Object.fromEntries(CHOOSABLE_FIELDS.map((f) => [f, z.uuid({ error: 'must be the id of the target or a source' }).optional()])))
      .strict()
      .optional()
      .meta({
        description:
          'Per field, the id of the contact (target or source) whose value the merged contact keeps. Default: the target value, ' +
          'or when null the first non-null source value; reminder_opt_out is true when any is. Tags are always united; ' +
          'consent_source and legal_basis follow marketing_consent.',
      }),
  })
  .strict()
  .meta({ id: 'ContactMerge' });
export type MergeBody = { source_ids: string[]; fields?: Partial<Record<ChoosableField, string>> };

export const MergeResult = z
  .object({
    contact: Contact.meta({ description: 'The target as it is (merge) or would be (preview) after the merge.' }),
    sources: z.array(Contact).meta({ description: 'The merged contacts; after a merge they are soft-deleted with merged_into_id.' }),
    moves: z
      .array(z.object({ resource: z.string(), count: z.number().int() }))
      .meta({ description: 'Records of the sources that point (would point) at the target, per resource.' }),
  })
  .meta({ id: 'ContactMergeResult' });

export const ConsentRecord = z
  .object({
    marketing_consent: z.boolean().nullable(),
    source: nullableString,
    legal_basis: nullableString,
    changed_at: Timestamp,
  })
  .meta({ id: 'ContactConsentRecord' });

export const ContactExport = z
  .object({
    format: z.literal('paraphe.contact-export.v1'),
    exported_at: Timestamp,
    contact: Contact,
    consent_history: z.array(ConsentRecord).meta({ description: 'Oldest first.' }),
    merged_contacts: z.array(Contact).meta({ description: 'Contacts that were merged into this one.' }),
    related: z
      .record(z.string(), z.array(z.record(z.string(), z.unknown())))
      .meta({ description: 'Records of other modules that refer to the contact, per resource.' }),
  })
  .meta({ id: 'ContactExport' });
