import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { documents, payments } from './billing';
import { contacts } from './contacts';
import { LANGUAGES } from './contact-values';
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

export const ONLINE_PAYMENT_METHODS = ['card', 'sepa_debit'] as const;
/**
 * open: a Checkout Session waits for the payer; processing: a SEPA debit is on its way (never paid yet);
 * succeeded: settled and recorded as a payment; failed: declined or a SEPA debit returned; expired: the session
 * lapsed unpaid; canceled: the payment intent was cancelled.
 */
export const ONLINE_PAYMENT_STATUSES = ['open', 'processing', 'succeeded', 'failed', 'expired', 'canceled'] as const;

/**
 * One attempt to collect a document online: a Checkout Session opened from the /pay page, or an off-session SEPA
 * debit on a mandate. Moves forward only (an out-of-order `processing` after `succeeded` changes nothing); once
 * settled, `payment_id` is the row in `payments` that the same service as a manual payment wrote.
 */
export const onlinePayments = pgTable(
  'online_payments',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** cs_… when opened through Checkout; null for an off-session debit. */
    checkout_session_id: text('checkout_session_id').unique(),
    /** pi_… once known. */
    provider_payment_id: text('provider_payment_id').unique(),
    /** Known once the payer chose (a session may allow both). */
    method: text('method', { enum: ONLINE_PAYMENT_METHODS }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: ONLINE_PAYMENT_STATUSES }).notNull().default('open'),
    /** The provider's reason of a failure, as the payer's bank gave it. */
    failure_message: text('failure_message'),
    /** Cents refunded at the provider so far (charge.refunded gives the running total). */
    amount_refunded: bigint('amount_refunded', { mode: 'number' }).notNull().default(0),
    /** The provider's dispute status (needs_response, won, lost…); null when none. */
    dispute_status: text('dispute_status'),
    /** Off-session debits: the attempt number of chargeMandate (its idempotency key is (document, attempt)). */
    mandate_attempt: integer('mandate_attempt'),
    payment_id: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** The /pay page's language when the payer opened Checkout: their receipt's; null for an off-session debit. */
    language: text('language', { enum: LANGUAGES }),
    /** When the receipt and the org's notice of the settled payment were queued: they are queued once. */
    receipts_queued_at: timestamp('receipts_queued_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('online_payments_document').on(t.org_id, t.document_id, t.id),
    uniqueIndex('online_payments_mandate_attempt').on(t.document_id, t.mandate_attempt).where(sql`${t.mandate_attempt} is not null`),
  ],
);

export const ONLINE_REFUND_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] as const;

/**
 * A refund at the provider of an online payment: asked from Paraphe (a credit note's « Rembourser par carte », POST
 * /v1/invoices/{id}/online-refunds) or made in the provider's dashboard. The money is counted (a negative payment,
 * reference re_…) only once the provider says succeeded; a failed or canceled one counts nothing. idempotency_key:
 * the form's or the client's, so a double submission asks the provider once.
 */
export const onlineRefunds = pgTable(
  'online_refunds',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** The invoice or deposit invoice refunded (its credit note, when it has one, receives the counted refund). */
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    online_payment_id: uuid('online_payment_id')
      .notNull()
      .references(() => onlinePayments.id, { onDelete: 'cascade' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status', { enum: ONLINE_REFUND_STATUSES }).notNull().default('pending'),
    /** re_… once the provider answered. */
    provider_refund_id: text('provider_refund_id').unique(),
    /** paraphe: asked from here; provider: made at the provider (dashboard), learnt from its events. */
    origin: text('origin', { enum: ['paraphe', 'provider'] }).notNull().default('paraphe'),
    idempotency_key: text('idempotency_key'),
    /** The provider's reason of a failure (lost_or_stolen_card, expired_or_canceled_card, unknown…) or its refusal. */
    failure_reason: text('failure_reason'),
    /** true once the negative payment is written (succeeded); false again if the provider then fails it. */
    counted: boolean('counted').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('online_refunds_document').on(t.org_id, t.document_id, t.id),
    uniqueIndex('online_refunds_idempotency').on(t.org_id, t.idempotency_key).where(sql`${t.idempotency_key} is not null`),
  ],
);

/** Provider events already handled, by the provider's event id: a replayed delivery is acknowledged and ignored. */
export const providerEvents = pgTable('provider_events', {
  event_id: text('event_id').primaryKey(),
  type: text('type').notNull(),
  /** The connected account the event came from (acct_…); null for the platform's own events. */
  account_id: text('account_id'),
  org_id: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The provider customer (cus_…) of a contact on the org's account, created on first use (SEPA mandate setup). */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    contact_id: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    customer_id: text('customer_id').notNull(),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.org_id, t.contact_id] })],
);

export const SEPA_MANDATE_STATUSES = ['pending', 'active', 'inactive', 'revoked'] as const;

/**
 * A SEPA direct-debit mandate of a buyer contact (DESIGN §8: one active at a time), set up through a setup-mode
 * Checkout. Provider ids (customer, payment method, mandate) never leave the server.
 */
export const sepaMandates = pgTable(
  'sepa_mandates',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    contact_id: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    customer_id: text('customer_id').notNull(),
    payment_method_id: text('payment_method_id').notNull(),
    /** mandate_… */
    mandate_id: text('mandate_id').unique(),
    status: text('status', { enum: SEPA_MANDATE_STATUSES }).notNull(),
    /** What the payer's bank account looks like, for staff: "FR76 •••• 1234" style last four. */
    iban_last4: text('iban_last4'),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('sepa_mandates_one_live').on(t.org_id, t.contact_id).where(sql`${t.status} in ('pending', 'active')`)],
);
