import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { documents, TRANSMISSION_STATUSES } from './billing';
import { createdAt, id, updatedAt } from './columns';
import { orgs } from './orgs';

/*
 * E-invoicing through a Plateforme Agréée (DESIGN §11, issue 17; docs/einvoicing.md). The PA is reached through the
 * AFNOR XP Z12-013 Flow and Directory services (lib/domain/einvoicing), which alone writes these tables.
 * einvoicing_document_states carries the summary the API shows on a billing document (transmission_status,
 * transmission_id, lifecycle_status/_reason/_at); the other tables keep the detail.
 */

export const ENROLLMENT_STATUSES = ['not_enrolled', 'pending', 'enrolled', 'failed'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * The org's line in the directory (annuaire) through its PA: one per org. `pending` while the PA has not confirmed
 * the directory line (a job polls it), `failed` with the PA's reason. No row reads as `not_enrolled`.
 */
export const einvoicingEnrollments = pgTable('einvoicing_enrollments', {
  org_id: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ENROLLMENT_STATUSES }).notNull().default('not_enrolled'),
  siren: text('siren'),
  siret: text('siret'),
  routing_code: text('routing_code'),
  /** `0225:<SIREN>` (ISO 6523 ICD 0225), the address buyers' PAs route to. */
  electronic_address: text('electronic_address'),
  /** Why it failed (the PA's error), null otherwise. */
  reason: text('reason'),
  requested_at: timestamp('requested_at', { withTimezone: true }),
  enrolled_at: timestamp('enrolled_at', { withTimezone: true }),
  failed_at: timestamp('failed_at', { withTimezone: true }),
  /** The PA's `idInstance` of the directory line, and of the routing code when one was created. */
  pa_directory_line_id: text('pa_directory_line_id'),
  pa_routing_code_id: text('pa_routing_code_id'),
  /** Last time the pending line was checked at the PA, and how many times. */
  checked_at: timestamp('checked_at', { withTimezone: true }),
  checks: integer('checks').notNull().default(0),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * What e-invoicing says of one issued document, as the API shows it on the billing document: its transmission's
 * status and the PA's flow id, and its latest lifecycle status. One row per document, keyed by the document's id
 * (documents' row loaders join it by primary key); written by lib/domain/einvoicing only, from the first time the
 * transmission moves (opened pending, or failed). No row: the document's frozen `transmission_required` says
 * `pending` or `not_required`, and no lifecycle status.
 */
export const einvoicingDocumentStates = pgTable('einvoicing_document_states', {
  document_id: uuid('document_id')
    .primaryKey()
    .references(() => documents.id, { onDelete: 'cascade' }),
  org_id: uuid('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  transmission_status: text('transmission_status', { enum: TRANSMISSION_STATUSES }).notNull().default('pending'),
  /** The PA's flowId once it accepted the upload (the API's transmission_id). */
  transmission_id: text('transmission_id'),
  /** The latest lifecycle status by the time it happened (its token), its reason when negative, and when. */
  lifecycle_status: text('lifecycle_status'),
  lifecycle_reason: text('lifecycle_reason'),
  lifecycle_at: timestamp('lifecycle_at', { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const TRANSMISSION_JOB_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type TransmissionJobStatus = (typeof TRANSMISSION_JOB_STATUSES)[number];

/**
 * The submission of one document's Factur-X to the PA: one row per document, ever. `tracking_id` (the row id, sent
 * as the flow's trackingId) lets a retry after a crash find the flow it already created instead of making a second
 * one; `file_sha256` is the digest sent with the flow (a resubmission of the same document and file is the same
 * transmission).
 */
export const einvoicingTransmissions = pgTable(
  'einvoicing_transmissions',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .unique()
      .references(() => documents.id),
    /** SHA-256 (hex) of the file submitted (the stored Factur-X PDF). */
    file_sha256: text('file_sha256').notNull(),
    /** The flow's trackingId at the PA (unique, stable across retries). */
    tracking_id: text('tracking_id').notNull().unique(),
    /** The PA's flowId, once it accepted the upload. */
    flow_id: text('flow_id'),
    status: text('status', { enum: TRANSMISSION_JOB_STATUSES }).notNull().default('pending'),
    /** The buyer's electronic address from the directory, as routed. */
    buyer_address: text('buyer_address'),
    /** The PA's acknowledgement of the flow (Pending | Ok | Error) as last read. */
    ack_status: text('ack_status'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
    /** While an attempt holds the row (a worker that dies lets it expire). */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    submitted_at: timestamp('submitted_at', { withTimezone: true }),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    failed_at: timestamp('failed_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('einvoicing_transmissions_document_file').on(t.document_id, t.file_sha256),
    uniqueIndex('einvoicing_transmissions_org_flow').on(t.org_id, t.flow_id),
    index('einvoicing_transmissions_due').on(t.next_attempt_at).where(sql`${t.status} in ('pending', 'sending')`),
  ],
);

export const LIFECYCLE_DIRECTIONS = ['received', 'sent'] as const;
export const LIFECYCLE_ISSUER_ROLES = ['seller', 'buyer', 'seller_pa', 'buyer_pa', 'ppf'] as const;
export type LifecycleIssuerRole = (typeof LIFECYCLE_ISSUER_ROLES)[number];

/**
 * Append-only log of lifecycle statuses (CDAR, XP Z12-012 codes 200…501) of an issued document or of a received
 * invoice: those the PA reports (`received`) and those the org emits (`sent`: 212 Encaissée, 204/207/210 on a
 * received invoice). `pa_event_id` is the PA's identity of the status (the CDAR flow id, with the status index
 * when one flow carries several): polling twice never writes it twice. A trigger forbids update and delete.
 */
export const einvoicingLifecycleEvents = pgTable(
  'einvoicing_lifecycle_events',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id').references(() => documents.id),
    inbound_invoice_id: uuid('inbound_invoice_id').references(() => inboundInvoices.id),
    direction: text('direction', { enum: LIFECYCLE_DIRECTIONS }).notNull(),
    pa_event_id: text('pa_event_id').notNull(),
    /** The CDAR flow that carried it. */
    flow_id: text('flow_id'),
    /** Status code (MDT-105), e.g. '200', '213'. */
    code: text('code').notNull(),
    /** Its token (DESIGN §11): deposee, refusee, encaissee, rejetee… */
    token: text('token').notNull(),
    reason_code: text('reason_code'),
    reason: text('reason'),
    issuer_role: text('issuer_role', { enum: LIFECYCLE_ISSUER_ROLES }).notNull(),
    /** 212 Encaissée: the amount collected (cents) — other codes: null. */
    amount_cents: bigint('amount_cents', { mode: 'number' }),
    occurred_at: timestamp('occurred_at', { withTimezone: true }).notNull(),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('einvoicing_lifecycle_events_identity').on(t.org_id, t.pa_event_id),
    index('einvoicing_lifecycle_events_document').on(t.document_id, t.occurred_at),
    index('einvoicing_lifecycle_events_inbound').on(t.inbound_invoice_id, t.occurred_at),
    check('einvoicing_lifecycle_events_subject', sql`(${t.document_id} is null) <> (${t.inbound_invoice_id} is null)`),
  ],
);

export const INBOUND_PARSE_STATUSES = ['parsed', 'parse_failed', 'pending'] as const;
export type InboundParseStatus = (typeof INBOUND_PARSE_STATUSES)[number];
export const INBOUND_FORMATS = ['cii', 'ubl', 'facturx'] as const;
export type InboundFormat = (typeof INBOUND_FORMATS)[number];

/**
 * An invoice received through the PA (a flow addressed to the org). The original file is stored as received
 * (`storage_key`, `sha256` never exposed); the parsed fields are those of the API's Inbound invoice.
 */
export const inboundInvoices = pgTable(
  'inbound_invoices',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** The PA's flowId (the API's transmission_id). */
    flow_id: text('flow_id').notNull(),
    parse_status: text('parse_status', { enum: INBOUND_PARSE_STATUSES }).notNull().default('pending'),
    /** Null until recognised (a file that is none of them stays null, parse_failed). */
    format: text('format', { enum: INBOUND_FORMATS }),
    parse_error: text('parse_error'),
    /** The original file as received, in the storage module, and its SHA-256 (hex). */
    storage_key: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    content_type: text('content_type'),
    byte_size: bigint('byte_size', { mode: 'number' }),
    /** The readable PDF: the Factur-X itself, or one rendered from the XML; null until there is one. */
    pdf_storage_key: text('pdf_storage_key'),
    invoice_number: text('invoice_number'),
    issue_date: text('issue_date'),
    due_date: text('due_date'),
    currency: text('currency'),
    seller_name: text('seller_name'),
    sender_siren: text('sender_siren'),
    total_ht: bigint('total_ht', { mode: 'number' }),
    total_vat: bigint('total_vat', { mode: 'number' }),
    total_ttc: bigint('total_ttc', { mode: 'number' }),
    /** The other parsed data (lines, VAT breakdown, buyer, notes…), for the inbox; not in the API body. */
    parsed: jsonb('parsed'),
    /** Last lifecycle status the org sent for it (204 prise en charge, 207 en litige, 210 refusée…). */
    lifecycle_status: text('lifecycle_status'),
    lifecycle_reason: text('lifecycle_reason'),
    lifecycle_at: timestamp('lifecycle_at', { withTimezone: true }),
    /** When the PA received it (the flow's submittedAt), and when Paraphe fetched it. */
    received_at: timestamp('received_at', { withTimezone: true }),
    imported_at: timestamp('imported_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('inbound_invoices_org_flow').on(t.org_id, t.flow_id),
    index('inbound_invoices_org').on(t.org_id, t.id),
    index('inbound_invoices_org_sender').on(t.org_id, t.sender_siren),
  ],
);

export const POLL_STREAMS = ['inbound', 'lifecycle'] as const;
export type PollStream = (typeof POLL_STREAMS)[number];

/**
 * Where each org's polling of `POST /v1/flows/search` stands, per stream: `updated_after` is the last `updatedAt`
 * fully read (the next search's `updatedAfter`); `seen_flow_ids` the flows read at exactly that instant, skipped
 * if the PA returns them again.
 */
export const einvoicingPollCursors = pgTable(
  'einvoicing_poll_cursors',
  {
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    stream: text('stream', { enum: POLL_STREAMS }).notNull(),
    updated_after: timestamp('updated_after', { withTimezone: true }),
    seen_flow_ids: jsonb('seen_flow_ids').$type<string[]>().notNull().default([]),
    polled_at: timestamp('polled_at', { withTimezone: true }),
    last_error: text('last_error'),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.org_id, t.stream] })],
);
