import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { LANGUAGES } from './contacts';
import { orgs } from './orgs';

export const EMAIL_STATUSES = ['queued', 'sent', 'delivered', 'bounced', 'failed'] as const;
export const EMAIL_TRANSPORTS = ['resend', 'outbox'] as const;
export const EMAIL_TEMPLATES = [
  'document_sent',
  'payment_reminder',
  'quote_expiry_reminder',
  'account_locked',
  'webhook_endpoint_disabled',
  'signature_request',
  'signature_reminder',
  'signature_expired',
  'signature_approval_requested',
  'signature_code',
  'signature_declined',
  'signature_completed',
  'signature_seal_failed',
  'payment_receipt',
  'payment_received',
  'org_invitation',
] as const;

export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export type EmailTransport = (typeof EMAIL_TRANSPORTS)[number];
export type EmailTemplate = (typeof EMAIL_TEMPLATES)[number];

/** What the e-mail record keeps of an attachment; the bytes themselves wait in `email_attachments`. */
export interface EmailAttachmentMeta {
  filename: string;
  content_type: string;
  size: number;
  /**
   * Where the bytes live in file storage. Null today: attachments are passed inline and their bytes wait in
   * `email_attachments`; the field is there for attachments that will reference stored files (lib/platform/storage).
   */
  storage_key: string | null;
}

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Every e-mail the app sends, whatever the transport: rendered (HTML and text) and recorded in the caller's
 * transaction with status `queued`, then sent by the `email.send` job. `attempts` counts send attempts across
 * every job that ever carried the e-mail (the bound on retries); `job_id` is the pg-boss job expected to send it.
 */
export const emails = pgTable(
  'emails',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    from: text('from').notNull(),
    to: text('to').array().notNull(),
    cc: text('cc').array().notNull().default(sql`'{}'::text[]`),
    reply_to: text('reply_to'),
    subject: text('subject').notNull(),
    template: text('template', { enum: EMAIL_TEMPLATES }).notNull(),
    template_data: jsonb('template_data').notNull(),
    language: text('language', { enum: LANGUAGES }).notNull(),
    /** The billing document the e-mail is about (no foreign key: documents and e-mails live in separate modules). */
    document_id: uuid('document_id'),
    attachments: jsonb('attachments').$type<EmailAttachmentMeta[]>().notNull().default([]),
    html: text('html').notNull(),
    text: text('text').notNull(),
    transport: text('transport', { enum: EMAIL_TRANSPORTS }).notNull(),
    provider_id: text('provider_id'),
    status: text('status', { enum: EMAIL_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    job_id: uuid('job_id'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('emails_org_transport').on(t.org_id, t.transport, t.id),
    index('emails_document').on(t.org_id, t.document_id, t.id).where(sql`${t.document_id} IS NOT NULL`),
    index('emails_provider_id').on(t.provider_id).where(sql`${t.provider_id} IS NOT NULL`),
    index('emails_queued').on(t.updated_at).where(sql`${t.status} = 'queued'`),
  ],
);

/** Attachment bytes of a Resend e-mail, kept until the provider has accepted it (then deleted). */
export const emailAttachments = pgTable(
  'email_attachments',
  {
    email_id: uuid('email_id')
      .notNull()
      .references(() => emails.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [primaryKey({ columns: [t.email_id, t.position] })],
);

/** Provider webhook deliveries already applied (Svix `svix-id`): a replay is acknowledged and ignored. */
export const emailWebhookEvents = pgTable(
  'email_webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_webhook_events_received').on(t.received_at)],
);
