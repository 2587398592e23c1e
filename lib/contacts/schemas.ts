import { z } from 'zod';
import { PageQuery } from '@/lib/http/pagination';
import { Timestamp } from '@/lib/openapi/schemas';
import { CHOOSABLE_FIELDS, type ChoosableField, CONTACT_TYPES, LANGUAGES, LEAD_STATUSES, MAX_IMPORT_ROWS } from './payload';

export * from './payload';

const nullableString = z.string().nullable();
/** PostgreSQL cannot hold a NUL character: a filter with one is a 422, not a failed query. */
const noNul = (s: string) => !s.includes('\u0000');
/** A contact id in canonical (lowercase) form, so ids compare as the database compares them, whatever case the client used. */
const contactId = (error: string) => z.uuid({ error }).transform((id) => id.toLowerCase());

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
    .refine(noNul, { error: 'contains a NUL character' })
    .optional()
    .meta({ description: 'Case- and accent-insensitive substring of first name, last name, company or e-mail.' }),
  type: z.enum(CONTACT_TYPES).optional(),
  lead_status: z.enum(LEAD_STATUSES).optional(),
  tag: z
    .string()
    .trim()
    .min(1, { error: 'must not be blank' })
    .refine(noNul, { error: 'contains a NUL character' })
    .optional()
    .meta({ description: 'Exact tag.' }),
  include_deleted: z
    .stringbool({ error: 'must be true or false' })
    .default(false)
    .meta({ description: 'Also list deleted, merged and erased contacts.', type: 'boolean' }),
});
export type ContactListQuery = z.output<typeof ContactListQuery>;

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

export const MergeBody = z
  .object({
    source_ids: z
      .array(contactId('must be a contact id'), { error: 'must be an array of contact ids' })
      .min(1, { error: 'give at least one contact to merge' })
      .max(20, { error: 'at most 20 contacts per merge' })
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: [i], message: 'listed twice' });
        });
      }),
    fields: z
      .object(Object.fromEntries(CHOOSABLE_FIELDS.map((f) => [f, contactId('must be the id of the target or a source').optional()])))
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
