import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { contacts } from './contacts';
import { orgs } from './orgs';

export const DOCUMENT_TYPES = ['devis', 'facture', 'acompte', 'avoir'] as const;
export const DOCUMENT_STATUSES = ['draft', 'finalized', 'sent', 'paid', 'accepted', 'rejected', 'expired', 'cancelled'] as const;
export const ITEM_KINDS = ['product', 'discount'] as const;
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export const RENDER_STATUSES = ['pending', 'rendering', 'ready', 'failed'] as const;
export const TRANSMISSION_STATUSES = ['not_required', 'pending', 'sending', 'sent', 'failed'] as const;
export const PAYMENT_PLAN_KINDS = ['none', 'deposit_then_balance', 'installments'] as const;
export const OPERATION_NATURES = ['biens', 'services', 'mixte'] as const;
export const VAT_EXIGIBILITIES = ['debits', 'encaissements'] as const;
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'sepa_debit', 'cheque', 'cash', 'other'] as const;
export const CREDIT_REASON_CODES = ['cancellation', 'billing_error', 'return', 'commercial_gesture', 'other'] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * A quote, invoice, deposit invoice or credit note. A draft until finalized; from `finalized_at` on, the
 * legal content (everything but the status, sent_at and contact columns) is frozen by the `billing_documents_immutable`
 * trigger (migrations billing_immutability, finalize_path_only, document_states_owned) as well as by the code, and `contact_id` only
 * follows a merge of its contact (docs/hash-chain.md). Only lib/domain/documents writes it: the render state is pdf's
 * (document_renders.status), the transmission and lifecycle states einvoicing's (einvoicing_document_states); the
 * billing document the API shows joins them at read time (lib/domain/documents/documents.ts).
 * Amounts are integer cents; quantities and rates decimal strings; dates Europe/Paris calendar days.
 */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    type: text('type', { enum: DOCUMENT_TYPES }).notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('draft'),
    /** When `status` last changed (the flow's history of accept/reject/expire/cancel/paid). */
    status_changed_at: timestamp('status_changed_at', { withTimezone: true }),
    /** The client. Once finalized, it only follows a merge of its contact; the client as invoiced is client_snapshot (hashed). */
    contact_id: uuid('contact_id')
      .notNull()
      .references(() => contacts.id),
    number: text('number'),
    issue_date: date('issue_date', { mode: 'string' }).notNull(),
    due_date: date('due_date', { mode: 'string' }),
    service_date: date('service_date', { mode: 'string' }),
    validity_date: date('validity_date', { mode: 'string' }),
    title: text('title'),
    description: text('description'),
    notes: text('notes'),
    total_ht: cents('total_ht').notNull().default(0),
    total_tva: cents('total_tva').notNull().default(0),
    total_ttc: cents('total_ttc').notNull().default(0),
    client_snapshot: jsonb('client_snapshot'),
    seller_snapshot: jsonb('seller_snapshot'),
    finalized_at: timestamp('finalized_at', { withTimezone: true }),
    /** 1-based position in the org's hash chain; the order chain:verify walks. */
    chain_index: bigint('chain_index', { mode: 'number' }),
    content_hash: text('content_hash'),
    prev_hash: text('prev_hash'),
    converted_from_id: uuid('converted_from_id').references((): AnyPgColumn => documents.id),
    parent_devis_id: uuid('parent_devis_id').references((): AnyPgColumn => documents.id),
    avoir_for_id: uuid('avoir_for_id').references((): AnyPgColumn => documents.id),
    acompte_percentage: text('acompte_percentage'),
    deposit_request_percentage: text('deposit_request_percentage'),
    credit_reason_code: text('credit_reason_code', { enum: CREDIT_REASON_CODES }),
    credit_reason_text: text('credit_reason_text'),
    delivery_address: jsonb('delivery_address'),
    discount_terms: text('discount_terms'),
    payment_terms: text('payment_terms'),
    payment_method: text('payment_method'),
    execution_timeline: text('execution_timeline'),
    operation_nature: text('operation_nature', { enum: OPERATION_NATURES }),
    vat_exigibility: text('vat_exigibility', { enum: VAT_EXIGIBILITIES }),
    payment_plan_kind: text('payment_plan_kind', { enum: PAYMENT_PLAN_KINDS }).notNull().default('none'),
    payment_plan_config: jsonb('payment_plan_config'),
    /**
     * Whether this document goes to the buyer's PA (e-invoicing), decided once at finalization by documents' rule
     * (lib/domain/documents/transmission-rule.ts) and frozen with it. The transmission itself is einvoicing's
     * (einvoicing_document_states); the API's transmission_status reads `pending` from this until einvoicing has a row.
     */
    transmission_required: boolean('transmission_required').notNull().default(false),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('documents_org_id').on(t.org_id, t.id),
    index('documents_org_type').on(t.org_id, t.type, t.id),
    index('documents_org_status').on(t.org_id, t.status, t.id),
    index('documents_org_contact').on(t.org_id, t.contact_id, t.id),
    index('documents_org_issue_date').on(t.org_id, t.issue_date),
    // Migration 0012 adds what Drizzle cannot declare: documents_search_trgm (GIN trigram of what q searches),
    // documents_org_issued and documents_org_receivable (partial, with INCLUDE columns, for the statistics).
    index('documents_parent_devis').on(t.parent_devis_id),
    index('documents_converted_from').on(t.converted_from_id),
    uniqueIndex('documents_org_number').on(t.org_id, t.number),
    uniqueIndex('documents_org_chain_index').on(t.org_id, t.chain_index),
    // At most one live credit note per invoice (a cancelled draft frees the slot).
    uniqueIndex('documents_one_credit_note').on(t.avoir_for_id).where(sql`${t.avoir_for_id} is not null and ${t.status} <> 'cancelled'`),
  ],
);

/** The lines of a document, frozen with it. A discount reads back with quantity "-1" and a positive unit_price. */
export const documentItems = pgTable(
  'document_items',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ITEM_KINDS }).notNull().default('product'),
    description: text('description').notNull(),
    details: text('details'),
    quantity: text('quantity').notNull(),
    /** UN/ECE Recommendation 20 code (HUR, DAY, C62…). */
    unit: text('unit'),
    unit_price: cents('unit_price').notNull(),
    vat_rate: text('vat_rate').notNull(),
    vat_category: text('vat_category', { enum: VAT_CATEGORIES }).notNull(),
    /** VATEX code of a 0 % line's exemption (BT-121), from VAT_EXEMPTION_REASONS; null: the category's default one. */
    vat_exemption_reason: text('vat_exemption_reason'),
    /** Catalogue product the line was taken from; a logical reference (the line keeps its own copy). */
    product_id: uuid('product_id'),
    total_ht: cents('total_ht').notNull(),
    total_ttc: cents('total_ttc').notNull(),
  },
  (t) => [index('document_items_document').on(t.document_id, t.position)],
);

/**
 * Which deposit invoices a final invoice deducts, and how much of each: one row per (deposit, VAT group), the
 * amount excluding VAT net of the credit notes issued on that deposit, as the conversion computed it
 * (lib/billing/convert-to-facture.ts) and wrote it with the invoice's discount lines. The PDF and the Factur-X
 * read it (lib/billing/deposit-deductions.ts). Frozen with its invoice once finalized (trigger
 * `deposit_deductions_immutable`, migration deposit_deductions_immutability); deleted with a deleted draft.
 */
export const depositDeductions = pgTable(
  'deposit_deductions',
  {
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** The final invoice. */
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The deposit invoice it deducts (finalized, so never deleted). */
    deposit_id: uuid('deposit_id')
      .notNull()
      .references(() => documents.id),
    vat_category: text('vat_category', { enum: VAT_CATEGORIES }).notNull(),
    vat_rate: text('vat_rate').notNull(),
    /** Cents excluding VAT deducted in this group: the deposit's base net of its credit notes, capped at what was left. */
    amount: cents('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.document_id, t.deposit_id, t.vat_category, t.vat_rate] }),
    index('deposit_deductions_deposit').on(t.deposit_id),
    check('deposit_deductions_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** A payment received against a finalized invoice or deposit invoice. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id),
    amount: cents('amount').notNull(),
    paid_at: date('paid_at', { mode: 'string' }).notNull(),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    reference: text('reference'),
    created_at: createdAt(),
  },
  (t) => [
    index('payments_document').on(t.document_id, t.id),
    // Migration 0012 rebuilds it with INCLUDE (amount) (index-only sums of cash collected), which Drizzle cannot declare.
    index('payments_org_paid_at').on(t.org_id, t.paid_at),
  ],
);

/**
 * The last number given per (org, type, year): locked FOR UPDATE by a finalization, so numbers have no gap. The
 * database lets it move only by one, to the number of the document just finalized (number_counters_finalize_only).
 */
export const numberCounters = pgTable(
  'number_counters',
  {
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    type: text('type', { enum: DOCUMENT_TYPES }).notNull(),
    year: integer('year').notNull(),
    last_number: integer('last_number').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.org_id, t.type, t.year] })],
);

/**
 * Head of an org's hash chain. A finalization locks this row first, so two concurrent finalizations of the
 * same org cannot both take the same prev_hash. The database lets it advance only by one, to the document just
 * sealed after it; verified_at changes freely (hash_chains_finalize_only).
 */
export const hashChains = pgTable('hash_chains', {
  org_id: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  length: bigint('length', { mode: 'number' }).notNull().default(0),
  head_hash: text('head_hash'),
  head_document_id: uuid('head_document_id'),
  /** The last time the whole chain was recomputed and found intact (POST /v1/invoices/chain/verify). */
  verified_at: timestamp('verified_at', { withTimezone: true }),
  updated_at: updatedAt(),
});

/** One per org. Absent until first read or written; the defaults are the spec's. */
export const invoiceSettings = pgTable('invoice_settings', {
  org_id: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  devis_prefix: text('devis_prefix').notNull().default('DEV'),
  facture_prefix: text('facture_prefix').notNull().default('FAC'),
  acompte_prefix: text('acompte_prefix').notNull().default('AC'),
  avoir_prefix: text('avoir_prefix').notNull().default('AV'),
  default_validity_days: integer('default_validity_days').notNull().default(30),
  default_vat_exigibility: text('default_vat_exigibility', { enum: VAT_EXIGIBILITIES }).default('debits'),
  default_payment_terms: text('default_payment_terms'),
  default_discount_terms: text('default_discount_terms'),
  footer_mentions: text('footer_mentions'),
  iban: text('iban'),
  bic: text('bic'),
  penalty_rate: text('penalty_rate'),
  recovery_fee: cents('recovery_fee').notNull().default(4000),
  auto_convert_signed_quotes: boolean('auto_convert_signed_quotes').notNull().default(false),
  auto_finalize_signed_invoices: boolean('auto_finalize_signed_invoices').notNull().default(false),
  auto_send_signed_invoices: boolean('auto_send_signed_invoices').notNull().default(false),
  einvoicing_enabled: boolean('einvoicing_enabled').notNull().default(false),
  ereporting_prefs: jsonb('ereporting_prefs'),
  pdp_config: jsonb('pdp_config'),
  /** Reminder ladders (lib/domain/reminders): days relative to the due date, and to a quote's validity date. */
  payment_reminder_offsets: integer('payment_reminder_offsets').array().notNull().default(sql`'{-3,1,7,15,30}'::integer[]`),
  quote_expiry_reminder_offsets: integer('quote_expiry_reminder_offsets').array().notNull().default(sql`'{-7,-2}'::integer[]`),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** The product catalogue: pre-fills document lines. */
export const products = pgTable(
  'products',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    unit: text('unit'),
    unit_price_cents: cents('unit_price_cents').notNull(),
    vat_rate: text('vat_rate').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('products_org_id').on(t.org_id, t.id)],
);
