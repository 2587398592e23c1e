import { z } from 'zod';
import { PageQuery } from '@/lib/platform/http';
import { Timestamp } from '@/lib/platform/contract';
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
    id: z.uuid().meta({ description: 'The contact’s id.' }),
    type: z.enum(CONTACT_TYPES).meta({ description: 'particulier (a person) or professionnel (a business).' }),
    display_name: nullableString.meta({ description: 'company, else first_name + last_name; null once erased.' }),
    first_name: nullableString.meta({ description: 'First name of a person; null when not given or once erased.' }),
    last_name: nullableString.meta({ description: 'Last name of a person; null when not given or once erased.' }),
    company: nullableString.meta({ description: 'Legal name of a business; null for a person without one.' }),
    email: nullableString.meta({ description: 'E-mail address, lowercased; where documents and reminders are sent. Null when unknown.' }),
    phone: nullableString.meta({ description: 'Phone number as given; null when unknown.' }),
    address: nullableString.meta({ description: 'Street address (lines separated by newlines); null when unknown.' }),
    city: nullableString.meta({ description: 'City; null when unknown.' }),
    postal_code: nullableString.meta({ description: 'Postal code as given; null when unknown.' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    siret: nullableString.meta({ description: 'SIRET, 14 digits: the establishment of a French business; null when unknown.' }),
    siren: nullableString.meta({ description: 'First 9 digits of the SIRET.' }),
    vat_intra: nullableString.meta({ description: 'Intra-EU VAT number, uppercased without spaces (FR44732829320); null when unknown.' }),
    default_payment_terms: nullableString.meta({ description: 'Payment terms that pre-fill this contact’s new documents; null: the org’s defaults.' }),
    default_discount_terms: nullableString.meta({ description: 'Early-payment discount terms that pre-fill new documents; null: the org’s defaults.' }),
    preferred_language: z.enum(LANGUAGES).nullable().meta({ description: 'Language of the e-mails and PDFs sent to the contact; null: French.' }),
    reminder_opt_out: z.boolean().meta({ description: 'True: no automatic payment reminder is sent to this contact.' }),
    marketing_consent: z.boolean().nullable().meta({ description: 'Consent to marketing messages; null when never asked.' }),
    consent_source: nullableString.meta({ description: 'Where the marketing consent was collected (form, call, import…); null when not said.' }),
    legal_basis: nullableString.meta({ description: 'Lawful basis of the processing (GDPR art. 6); null when not said.' }),
    consent_updated_at: Timestamp.nullable().meta({ description: 'Last change of marketing_consent.' }),
    lead_status: z.enum(LEAD_STATUSES).nullable().meta({ description: 'Stage of a prospect: new, qualified, contacted, won or lost; null for none.' }),
    lead_score: z.number().int().min(0).max(100).nullable().meta({ description: 'Prospect score from 0 to 100; null when not scored.' }),
    notes: nullableString.meta({ description: 'Internal notes, never printed on documents; null when none.' }),
    tags: z.array(z.string()).meta({ description: 'Free labels, deduplicated; empty when none.' }),
    merged_into_id: z.uuid().nullable().meta({ description: 'Set when this contact was merged into another.' }),
    deleted_at: Timestamp.nullable().meta({ description: 'Soft delete (also set by a merge or an erasure).' }),
    erased_at: Timestamp.nullable().meta({ description: 'Set by an erasure: every personal field is null.' }),
    created_at: Timestamp.meta({ description: 'When the contact was created.' }),
    updated_at: Timestamp.meta({ description: 'When the contact last changed.' }),
  })
  .meta({ id: 'Contact', description: 'A client or prospect: a person (particulier) or a business (professionnel).' });
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
  type: z.enum(CONTACT_TYPES).optional().meta({ description: 'Only contacts of this type.' }),
  lead_status: z.enum(LEAD_STATUSES).optional().meta({ description: 'Only contacts at this lead status.' }),
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
      .array(
        z.object({
          index: z.number().int().meta({ description: 'Zero-based position in contacts.' }),
          reason: z.string().meta({ description: 'What is wrong with the row, naming the field.' }),
        }),
      )
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
      })
      .meta({ description: 'The contacts merged into the one of the path (1 to 20, each once); they end soft-deleted.' }),
    fields: z
      .object(Object.fromEntries(CHOOSABLE_FIELDS.map((f) => [f, contactId('must be the id of the target or a source').optional().meta({ description: `The contact whose ${f} is kept.` })])))
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
      .array(
        z.object({
          resource: z.string().meta({ description: 'The kind of record (documents, envelopes, recurring_invoices…).' }),
          count: z.number().int().meta({ description: 'How many of them move to the target.' }),
        }),
      )
      .meta({ description: 'Records of the sources that point (would point) at the target, per resource.' }),
  })
  .meta({ id: 'ContactMergeResult' });

export const ConsentRecord = z
  .object({
    marketing_consent: z.boolean().nullable().meta({ description: 'The consent from then on; null: not known.' }),
    source: nullableString.meta({ description: 'Where it was collected; null when not said.' }),
    legal_basis: nullableString.meta({ description: 'Lawful basis of the processing (GDPR art. 6); null when not said.' }),
    changed_at: Timestamp.meta({ description: 'When the consent changed.' }),
  })
  .meta({ id: 'ContactConsentRecord' });

export const ContactExport = z
  .object({
    format: z.literal('paraphe.contact-export.v1').meta({ description: 'The export format and its version.' }),
    exported_at: Timestamp.meta({ description: 'When this export was made.' }),
    contact: Contact,
    consent_history: z.array(ConsentRecord).meta({ description: 'Oldest first.' }),
    merged_contacts: z.array(Contact).meta({ description: 'Contacts that were merged into this one.' }),
    related: z
      .record(z.string(), z.array(z.record(z.string(), z.unknown())))
      .meta({ description: 'Records of other modules that refer to the contact, per resource.' }),
  })
  .meta({ id: 'ContactExport' });
