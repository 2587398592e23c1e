import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { orgs, users } from './orgs';

/**
 * Electronic signature (issues 18 and 19, DESIGN §12, docs/signature.md). Every table carries `org_id`: every read
 * filters on it. Secrets (signer tokens, one-time codes) are stored hashed; the audit chain is append-only at the
 * database layer (migration `signature`).
 */

export const SIGNATURE_SOURCE_KINDS = ['document', 'devis', 'facture'] as const;
export const ENVELOPE_STATUSES = ['draft', 'sent', 'in_progress', 'completed', 'declined', 'expired', 'cancelled'] as const;
export const ROUTING_MODES = ['sequential', 'parallel'] as const;
export const ASSURANCE_LEVELS = ['simple', 'advanced'] as const;
export const VERIFICATION_METHODS = ['email_otp', 'sms_otp', 'none'] as const;
export const SIGNER_STATUSES = ['waiting', 'notified', 'opened', 'signed', 'declined'] as const;
export const FIELD_TYPES = ['signature', 'initials', 'date', 'text', 'checkbox', 'name', 'email'] as const;
export const SIGNATURE_KINDS = ['typed', 'drawn'] as const;
export const OTP_CHANNELS = ['email', 'sms'] as const;

export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];
export type SignerStatus = (typeof SIGNER_STATUSES)[number];

const ts = (name: string) => timestamp(name, { withTimezone: true });
const orgId = () =>
  uuid('org_id')
    .notNull()
    .references(() => orgs.id, { onDelete: 'cascade' });

/** An uploaded PDF (`POST /v1/signature/documents`) or the frozen render of a billing document at send. Immutable. */
export const signatureDocuments = pgTable(
  'signature_documents',
  {
    id: id(),
    org_id: orgId(),
    name: text('name').notNull(),
    storage_key: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    page_count: integer('page_count').notNull(),
    byte_size: integer('byte_size').notNull(),
    /** Set when the PDF is the frozen render of a finalized billing document (source kinds devis / facture). */
    billing_document_id: uuid('billing_document_id'),
    /** The `{{type:signer…}}` text tags found at upload (issue 19, lib/domain/signature/text-tags.ts), boxes in page fractions. */
    text_tags: jsonb('text_tags').notNull().default(sql`'[]'::jsonb`),
    created_at: createdAt(),
  },
  (t) => [index('signature_documents_org').on(t.org_id, t.id)],
);

/** Presets of an envelope (spec "Signature template"). */
export const signatureTemplates = pgTable(
  'signature_templates',
  {
    id: id(),
    org_id: orgId(),
    name: text('name').notNull(),
    subject: text('subject'),
    message: text('message'),
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    cc_recipients: text('cc_recipients').array().notNull().default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('signature_templates_org').on(t.org_id, t.id)],
);

/** A public signature form (issue 19): each verified submission creates an envelope around `source_document_id`. */
export const signatureForms = pgTable(
  'signature_forms',
  {
    id: id(),
    org_id: orgId(),
    /** 128-bit, base62: the public `/sign/forms/<slug>`. */
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    source_document_id: uuid('source_document_id')
      .notNull()
      .references(() => signatureDocuments.id),
    template_id: uuid('template_id').references(() => signatureTemplates.id, { onDelete: 'set null' }),
    verification_method: text('verification_method', { enum: VERIFICATION_METHODS }).notNull().default('email_otp'),
    active: boolean('active').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('signature_forms_slug').on(t.slug), index('signature_forms_org').on(t.org_id, t.id)],
);

/** One `POST /v1/signature/envelopes/bulk` request and its result (issue 19): the back-office's results view. */
export const signatureBulkBatches = pgTable(
  'signature_bulk_batches',
  {
    id: id(),
    org_id: orgId(),
    /** SHA-256 of the request: the same request again finds its envelopes (per-recipient keys below). */
    request_hash: text('request_hash').notNull(),
    recipient_count: integer('recipient_count').notNull(),
    sent_count: integer('sent_count').notNull().default(0),
    failed_count: integer('failed_count').notNull().default(0),
    /** The spec's `results`, in request order. */
    results: jsonb('results').notNull().default(sql`'[]'::jsonb`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('signature_bulk_batches_org').on(t.org_id, t.id)],
);

export const signatureEnvelopes = pgTable(
  'signature_envelopes',
  {
    id: id(),
    org_id: orgId(),
    status: text('status', { enum: ENVELOPE_STATUSES }).notNull().default('draft'),
    source_kind: text('source_kind', { enum: SIGNATURE_SOURCE_KINDS }).notNull(),
    /** A signature document (kind document) or a billing document of the org (devis, facture): checked by lib. */
    source_document_id: uuid('source_document_id').notNull(),
    /** The PDF the signers sign: the source document, or the billing document's render frozen at send. */
    document_id: uuid('document_id').references(() => signatureDocuments.id),
    /** The contact of the source quote or invoice (the list's `contact_id` filter); null for an uploaded PDF. */
    contact_id: uuid('contact_id'),
    template_id: uuid('template_id').references(() => signatureTemplates.id, { onDelete: 'set null' }),
    form_id: uuid('form_id').references(() => signatureForms.id, { onDelete: 'set null' }),
    bulk_batch_id: uuid('bulk_batch_id').references(() => signatureBulkBatches.id, { onDelete: 'set null' }),
    /** Per-recipient idempotency of a bulk request: a retried request finds the envelope instead of creating one. */
    bulk_key: text('bulk_key'),
    created_by_user_id: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    routing_mode: text('routing_mode', { enum: ROUTING_MODES }).notNull().default('sequential'),
    assurance_level: text('assurance_level', { enum: ASSURANCE_LEVELS }).notNull().default('simple'),
    consent_text_version: text('consent_text_version').notNull(),
    subject: text('subject'),
    message: text('message'),
    sender_name: text('sender_name'),
    reply_to: text('reply_to'),
    cc_recipients: text('cc_recipients').array().notNull().default(sql`'{}'::text[]`),
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    expires_at: ts('expires_at'),
    sent_at: ts('sent_at'),
    completed_at: ts('completed_at'),
    declined_at: ts('declined_at'),
    cancelled_at: ts('cancelled_at'),
    expired_at: ts('expired_at'),
    /** SHA-256 hex of the frozen document, set at send. */
    document_hash: text('document_hash'),
    /** The composited and sealed PDF (PAdES-B), set at completion. */
    signed_document_key: text('signed_document_key'),
    signed_document_sha256: text('signed_document_sha256'),
    /** The evidence report PDF, set at completion or decline. */
    proof_key: text('proof_key'),
    /*
     * Where the seal job stands (migration 0031; the API's `evidence`): the attempts run, the last failure's code
     * and message (kept until an attempt succeeds), and when the last retry of the job failed for good.
     */
    evidence_attempts: integer('evidence_attempts').notNull().default(0),
    evidence_error_code: text('evidence_error_code'),
    evidence_error: text('evidence_error'),
    evidence_failed_at: ts('evidence_failed_at'),
    reminder_count: integer('reminder_count').notNull().default(0),
    reminder_max_count: integer('reminder_max_count').notNull().default(1),
    /** Null: the default cadence (48 h). */
    reminder_interval_hours: integer('reminder_interval_hours'),
    next_reminder_at: ts('next_reminder_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('signature_envelopes_org').on(t.org_id, t.id),
    index('signature_envelopes_org_status').on(t.org_id, t.status, t.id),
    index('signature_envelopes_source').on(t.org_id, t.source_document_id),
    index('signature_envelopes_contact').on(t.org_id, t.contact_id).where(sql`${t.contact_id} is not null`),
    index('signature_envelopes_labels').using('gin', t.labels),
    uniqueIndex('signature_envelopes_bulk_key').on(t.org_id, t.bulk_key),
    index('signature_envelopes_expiry').on(t.expires_at).where(sql`${t.status} in ('sent', 'in_progress')`),
    index('signature_envelopes_reminder').on(t.next_reminder_at).where(sql`${t.status} in ('sent', 'in_progress')`),
    check('signature_envelopes_reminders', sql`${t.reminder_count} >= 0 and ${t.reminder_max_count} >= 0`),
  ],
);

/** The envelope a row belongs to, deleted with it (only a draft can be: migration 0024). */
const envelopeId = () =>
  uuid('envelope_id')
    .notNull()
    .references(() => signatureEnvelopes.id, { onDelete: 'cascade' });

/** The signer a row belongs to, deleted with them (a draft's signer set is replaced). */
const signerId = () =>
  uuid('signer_id')
    .notNull()
    .references(() => signatureSigners.id, { onDelete: 'cascade' });

/** Documents attached to an envelope besides its main one (`…/documents`, while draft). */
export const signatureEnvelopeDocuments = pgTable(
  'signature_envelope_documents',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    document_id: uuid('document_id')
      .notNull()
      .references(() => signatureDocuments.id),
    position: integer('position').notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('signature_envelope_documents_unique').on(t.envelope_id, t.document_id)],
);

export const signatureSigners = pgTable(
  'signature_signers',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    /** Order in the request: the spec's signer arrays keep it. */
    position: integer('position').notNull(),
    email: text('email').notNull(),
    full_name: text('full_name'),
    /** E.164; required for `sms_otp`. */
    phone: text('phone'),
    routing_order: integer('routing_order').notNull().default(0),
    verification_method: text('verification_method', { enum: VERIFICATION_METHODS }).notNull().default('email_otp'),
    status: text('status', { enum: SIGNER_STATUSES }).notNull().default('waiting'),
    /** SHA-256 hex of the 256-bit link token; null until sent, and again once the token died. */
    token_hash: text('token_hash'),
    /** The token encrypted (AES-256-GCM) for `…/signers/{id}/link`; never exposed otherwise. */
    token_ciphertext: text('token_ciphertext'),
    token_expires_at: ts('token_expires_at'),
    /** Failed attempts on the current code; 5 lock the signer. */
    otp_attempts: integer('otp_attempts').notNull().default(0),
    locked_at: ts('locked_at'),
    verified_at: ts('verified_at'),
    notified_at: ts('notified_at'),
    opened_at: ts('opened_at'),
    consent_given_at: ts('consent_given_at'),
    consent_text_version: text('consent_text_version'),
    signed_at: ts('signed_at'),
    signed_ip: text('signed_ip'),
    signed_user_agent: text('signed_user_agent'),
    signature_kind: text('signature_kind', { enum: SIGNATURE_KINDS }),
    /** The typed name, or the drawn signature as a PNG data URL. */
    signature_value: text('signature_value'),
    declined_at: ts('declined_at'),
    decline_reason: text('decline_reason'),
    reminded_at: ts('reminded_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('signature_signers_envelope').on(t.envelope_id, t.position),
    uniqueIndex('signature_signers_token').on(t.token_hash),
    check('signature_signers_otp_attempts', sql`${t.otp_attempts} >= 0`),
    check('signature_signers_routing_order', sql`${t.routing_order} >= 0`),
  ],
);

export const signatureApprovers = pgTable(
  'signature_approvers',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id),
    approved_at: ts('approved_at'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('signature_approvers_unique').on(t.envelope_id, t.user_id)],
);

/** A field on the document for one signer; geometry in fractions of the page, origin top-left. */
export const signatureFields = pgTable(
  'signature_fields',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    signer_id: signerId(),
    position: integer('position').notNull(),
    type: text('type', { enum: FIELD_TYPES }).notNull(),
    /** 1-based. */
    page: integer('page').notNull(),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    required: boolean('required').notNull().default(true),
    label: text('label'),
    /** How it was placed: by the API / editor, or detected from a `{{…}}` text tag at upload (issue 19). */
    origin: text('origin', { enum: ['api', 'tag'] })
      .notNull()
      .default('api'),
    value: text('value'),
    filled_at: ts('filled_at'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('signature_fields_envelope').on(t.envelope_id, t.position),
    check('signature_fields_page', sql`${t.page} >= 1`),
    check(
      'signature_fields_geometry',
      sql`${t.x} >= 0 and ${t.y} >= 0 and ${t.width} > 0 and ${t.height} > 0 and ${t.x} + ${t.width} <= 1 and ${t.y} + ${t.height} <= 1`,
    ),
  ],
);

export const signatureRequestedDocuments = pgTable(
  'signature_requested_documents',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    signer_id: signerId(),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    description: text('description'),
    required: boolean('required').notNull().default(true),
    created_at: createdAt(),
  },
  (t) => [index('signature_requested_documents_envelope').on(t.envelope_id, t.position)],
);

/** A file a signer uploaded for a requested document. */
export const signatureUploads = pgTable(
  'signature_uploads',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    requested_document_id: uuid('requested_document_id')
      .notNull()
      .references(() => signatureRequestedDocuments.id, { onDelete: 'cascade' }),
    signer_id: signerId(),
    name: text('name').notNull(),
    content_type: text('content_type').notNull(),
    storage_key: text('storage_key').notNull(),
    byte_size: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('signature_uploads_requested').on(t.requested_document_id)],
);

/** A one-time code sent to a signer (6 digits, hashed, 10 minutes); the attempts count on the signer. */
export const signatureOtpCodes = pgTable(
  'signature_otp_codes',
  {
    id: id(),
    org_id: orgId(),
    signer_id: signerId(),
    channel: text('channel', { enum: OTP_CHANNELS }).notNull(),
    code_hash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: ts('expires_at').notNull(),
    consumed_at: ts('consumed_at'),
    created_at: createdAt(),
  },
  (t) => [index('signature_otp_codes_signer').on(t.signer_id, t.id)],
);

/** A visitor of a public form (issue 19): the e-mail is verified by code before an envelope is created. */
export const signatureFormSubmissions = pgTable(
  'signature_form_submissions',
  {
    id: id(),
    org_id: orgId(),
    form_id: uuid('form_id')
      .notNull()
      .references(() => signatureForms.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    full_name: text('full_name').notNull(),
    phone: text('phone'),
    code_hash: text('code_hash'),
    attempts: integer('attempts').notNull().default(0),
    code_expires_at: ts('code_expires_at'),
    verified_at: ts('verified_at'),
    envelope_id: uuid('envelope_id').references(() => signatureEnvelopes.id, { onDelete: 'set null' }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: createdAt(),
  },
  (t) => [index('signature_form_submissions_form').on(t.form_id, t.id)],
);

/**
 * The envelope's audit chain (DESIGN §12): append-only (a trigger refuses UPDATE, and DELETE unless the envelope
 * itself is gone, which only a draft may be). `signer_id` is a plain reference: a draft's signer set is replaced,
 * the events that named a former signer stay.
 */
export const signatureAuditEvents = pgTable(
  'signature_audit_events',
  {
    id: id(),
    org_id: orgId(),
    envelope_id: envelopeId(),
    seq_index: bigint('seq_index', { mode: 'number' }).notNull(),
    event_type: text('event_type').notNull(),
    event_data: jsonb('event_data').notNull(),
    signer_id: uuid('signer_id'),
    occurred_at: ts('occurred_at').notNull(),
    content_hash: text('content_hash').notNull(),
    prev_hash: text('prev_hash'),
  },
  (t) => [
    uniqueIndex('signature_audit_events_seq').on(t.envelope_id, t.seq_index),
    check('signature_audit_events_start', sql`(${t.seq_index} = 0) = (${t.prev_hash} is null)`),
  ],
);
