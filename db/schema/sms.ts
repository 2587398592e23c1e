import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { orgs } from './orgs';

export const SMS_TRANSPORTS = ['outbox', 'provider'] as const;
export const SMS_STATUSES = ['queued', 'sent', 'failed'] as const;
export type SmsTransport = (typeof SMS_TRANSPORTS)[number];
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * Every text message the app sends (lib/domain/sms), recorded in the caller's transaction. With no `SMS_PROVIDER` the
 * transport is the outbox: nothing leaves, the row is the message as delivered, shown at /dev/sms beside the mail
 * outbox. With a provider it is `queued` until the `sms.send` job hands it over.
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** E.164. */
    to: text('to').notNull(),
    body: text('body').notNull(),
    /** What the message is for (`signature_code`), for the outbox's list. */
    purpose: text('purpose').notNull(),
    transport: text('transport', { enum: SMS_TRANSPORTS }).notNull(),
    /** The provider's name when the transport is `provider` (SMS_PROVIDER). */
    provider: text('provider'),
    provider_id: text('provider_id'),
    status: text('status', { enum: SMS_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('sms_messages_org_transport').on(t.org_id, t.transport, t.id), index('sms_messages_queued').on(t.updated_at).where(sql`${t.status} = 'queued'`)],
);
