import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES } from './contact-values';
import { orgs } from './orgs';

export { CONTACT_TYPES, LANGUAGES, LEAD_STATUSES };

/**
 * A client or prospect of the org (person or business). Deleting is soft (`deleted_at`); a merge soft-deletes
 * the sources with `merged_into_id`; an erasure (GDPR) nulls every personal field and sets `erased_at`, so
 * documents that point at the row keep a valid reference while the person's data is gone.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    type: text('type', { enum: CONTACT_TYPES }).notNull().default('professionnel'),
    first_name: text('first_name'),
    last_name: text('last_name'),
    company: text('company'),
    /** Stored trimmed and lowercased: equality is the import's duplicate rule. */
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    city: text('city'),
    postal_code: text('postal_code'),
    country: text('country').notNull().default('FR'),
    siret: text('siret'),
    /** First 9 digits of the SIRET, kept in sync by the service. */
    siren: text('siren'),
    vat_intra: text('vat_intra'),
    default_payment_terms: text('default_payment_terms'),
    default_discount_terms: text('default_discount_terms'),
    preferred_language: text('preferred_language', { enum: LANGUAGES }),
    reminder_opt_out: boolean('reminder_opt_out').notNull().default(false),
    /** Null means never asked, which is not the same as a refusal. */
    marketing_consent: boolean('marketing_consent'),
    consent_source: text('consent_source'),
    legal_basis: text('legal_basis'),
    consent_updated_at: timestamp('consent_updated_at', { withTimezone: true }),
    lead_status: text('lead_status', { enum: LEAD_STATUSES }),
    lead_score: integer('lead_score'),
    notes: text('notes'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** What `q` searches: names, company and e-mail, lowercased, in one column (ready for a trigram index). */
    search: text('search').generatedAlwaysAs(
      sql`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(company, '') || ' ' || coalesce(email, ''))`,
    ),
    /**
     * Display name without case, accents or punctuation: with the postal code, the "same name" duplicate rule.
     * translate() covers the accented letters of French and its neighbours; it stays IMMUTABLE, unlike unaccent.
     */
    name_key: text('name_key').generatedAlwaysAs(
      sql`nullif(trim(regexp_replace(translate(lower(coalesce(nullif(trim(company), ''), coalesce(first_name, '') || ' ' || coalesce(last_name, ''))), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿœæ', 'aaaaaaceeeeiiiinooooouuuuyyoa'), '[^a-z0-9]+', ' ', 'g')), '')`,
    ),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    merged_into_id: uuid('merged_into_id').references((): AnyPgColumn => contacts.id, { onDelete: 'set null' }),
    erased_at: timestamp('erased_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('contacts_org_id').on(t.org_id, t.id),
    index('contacts_org_email').on(t.org_id, t.email),
    index('contacts_org_siret').on(t.org_id, t.siret),
    index('contacts_org_name_key').on(t.org_id, t.name_key, t.postal_code),
    index('contacts_org_lead_status').on(t.org_id, t.lead_status, t.id),
    index('contacts_org_type').on(t.org_id, t.type, t.id),
    index('contacts_tags').using('gin', t.tags),
  ],
);

/** Every change of `marketing_consent`, oldest first: the proof a data-protection audit asks for. */
export const contactConsents = pgTable(
  'contact_consents',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    contact_id: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    marketing_consent: boolean('marketing_consent'),
    source: text('source'),
    legal_basis: text('legal_basis'),
    changed_at: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_consents_contact').on(t.contact_id, t.id)],
);
