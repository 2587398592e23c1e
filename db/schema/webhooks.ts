import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns';
import { orgs } from './orgs';

/**
 * An org's outbound webhook target (DESIGN §10). The secret signs deliveries, so it is kept in clear (it cannot be
 * hashed); after a rotation the previous one still signs until `previous_secret_expires_at` (24 h).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Catalogued tokens, or `*` for every event. */
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secret: text('secret').notNull(),
    previous_secret: text('previous_secret'),
    previous_secret_expires_at: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** First failed attempt since the last success; null while healthy. */
    failing_since: timestamp('failing_since', { withTimezone: true }),
    /** Why the service disabled it (gone: a 410 answer; failing: 5 days of failures); null when staff did, or enabled. */
    disabled_reason: text('disabled_reason'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('webhook_endpoints_org').on(t.org_id, t.id)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event to one endpoint, with its last attempt. `event_id` is the outbox row's id (also the `webhook-id` header),
 * or a test event's own id with its body in `payload` (test events are not in the outbox).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event_id: uuid('event_id').notNull(),
    event_type: text('event_type').notNull(),
    /** The body of a test event (`{id, type, created_at, data}`); null for an outbox event, read from `events`. */
    payload: jsonb('payload'),
    /** Attempts made so far. */
    attempt: integer('attempt').notNull().default(0),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }),
    /** Set while a worker holds an attempt in flight: bounds the attempts per endpoint, and expires if it dies. */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    last_attempt_at: timestamp('last_attempt_at', { withTimezone: true }),
    response_status: integer('response_status'),
    response_duration_ms: integer('response_duration_ms'),
    /** The first 1 KB of the last response's body. */
    response_body: text('response_body'),
    /** Why the last attempt failed without a response (timeout, refused address, DNS). */
    last_error: text('last_error'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint').on(t.event_id, t.endpoint_id),
    index('webhook_deliveries_endpoint').on(t.endpoint_id, t.id),
    index('webhook_deliveries_in_flight').on(t.endpoint_id).where(sql`${t.locked_until} is not null`),
  ],
);
