import { bigint, index, integer, jsonb, pgTable, text, unique, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { orgs } from './orgs';

/** Transactional outbox: every module writes its event in the same transaction as its change. */
export const events = pgTable(
  'events',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('events_org_id').on(t.org_id, t.id)],
);

/** Idempotency-Key records: status null while the first request is still running. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    request_hash: text('request_hash').notNull(),
    status: integer('status'),
    response_body: jsonb('response_body'),
    created_at: createdAt(),
  },
  (t) => [unique('idempotency_keys_unique').on(t.org_id, t.principal, t.key), index('idempotency_keys_created').on(t.created_at)],
);

/** Store of rate-limiter-flexible's Postgres limiter (its own column layout), shared by every instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
