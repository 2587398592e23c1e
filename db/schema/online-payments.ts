import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents } from './billing';
import { createdAt, id, updatedAt } from './columns';
import { orgs } from './orgs';

export const CAPABILITY_STATUSES = ['active', 'inactive', 'pending', 'unrequested'] as const;

/**
 * The org's own connected account at the payment provider (DESIGN §8: direct charges on it, the org is the merchant
 * of record) and its readiness as last read: at connection, on return from onboarding, from `account.updated`.
 */
export const paymentAccounts = pgTable('payment_accounts', {
  org_id: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** The provider's account id (acct_…); never shown in an API body. One org per account. */
  account_id: text('account_id').notNull().unique(),
  charges_enabled: boolean('charges_enabled').notNull().default(false),
  details_submitted: boolean('details_submitted').notNull().default(false),
  card_payments: text('card_payments', { enum: CAPABILITY_STATUSES }).notNull().default('unrequested'),
  sepa_debit_payments: text('sepa_debit_payments', { enum: CAPABILITY_STATUSES }).notNull().default('unrequested'),
  /** The provider's requirement names due now (empty when none). */
  requirements_due: jsonb('requirements_due').$type<string[]>().notNull().default([]),
  /** When the readiness above was read from the provider. */
  refreshed_at: timestamp('refreshed_at', { withTimezone: true }).notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * The public payment link of an invoice or deposit invoice (`{APP_BASE_URL}/pay/<token>`): the 256-bit token is
 * looked up by its SHA-256 and kept AES-256-GCM encrypted (key from AUTH_SECRET) so the URL can be shown again.
 * Durable (expires_at null) until the document is paid or cancelled.
 */
export const paymentLinks = pgTable(
  'payment_links',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .unique()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token, hex: the /pay page's lookup. */
    token_hash: text('token_hash').notNull().unique(),
    /** iv.ciphertext.tag (base64url) of the token; null when it cannot be recovered (url null in the API). */
    token_encrypted: text('token_encrypted'),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('payment_links_org').on(t.org_id)],
);
