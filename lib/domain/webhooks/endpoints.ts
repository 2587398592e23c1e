import { and, desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@/db/client';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { afterCursor, type PageQuery, toPage } from '@/lib/platform/http';
import { webhooksAllowPrivate } from '@/lib/platform/config';
import { enqueue } from '@/lib/platform/jobs';
import { resolveTarget, type TargetOptions, TargetRefused } from '@/lib/platform/outbound';
import { deliverWebhookJob } from './deliver';
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointUpdate } from './schemas';
import { TEST_EVENT_TYPE } from './schemas';
import { newWebhookSecret } from './signing';

/** A rotated-out secret still signs this long, so receivers can switch without losing a delivery. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function publicEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function publicDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt: row.attempt,
    response_status: row.response_status,
    response_duration_ms: row.response_duration_ms,
    response_body: row.response_body,
    error: row.last_error,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    created_at: row.created_at.toISOString(),
  };
}

/** The URL, checked as a delivery will be (after DNS): a refusal is a 422 on `url`. Before any transaction. */
async function checkedUrl(url: string, options: Partial<TargetOptions>): Promise<string> {
  try {
    return (await resolveTarget(url, { ...options, allowPrivate: options.allowPrivate ?? webhooksAllowPrivate() })).url.toString();
  } catch (error) {
    if (error instanceof TargetRefused) throw validationError('url', `url: ${error.reason}`);
    throw error;
  }
}

async function endpointOf(db: Db, orgId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.org_id, orgId), eq(webhookEndpoints.id, id)));
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function createEndpoint(db: Db, orgId: string, input: WebhookEndpointCreate, options: Partial<TargetOptions> = {}) {
  const url = await checkedUrl(input.url, options);
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ org_id: orgId, url, events: input.events, enabled: input.enabled, secret: newWebhookSecret() })
    .returning();
  return { ...publicEndpoint(row!), secret: row!.secret };
}

export async function listEndpoints(db: Db, orgId: string, query: PageQuery) {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.org_id, orgId), afterCursor(webhookEndpoints.id, query.cursor)))
    .orderBy(desc(webhookEndpoints.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, publicEndpoint);
}

export async function getEndpoint(db: Db, orgId: string, id: string) {
  return publicEndpoint(await endpointOf(db, orgId, id));
}

export async function updateEndpoint(db: Db, orgId: string, id: string, input: WebhookEndpointUpdate, options: Partial<TargetOptions> = {}) {
  await endpointOf(db, orgId, id);
  const url = input.url === undefined ? undefined : await checkedUrl(input.url, options);
  const changes: Partial<typeof webhookEndpoints.$inferInsert> = {};
  if (url !== undefined) changes.url = url;
  if (input.events !== undefined) changes.events = input.events;
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    // Enabled again by staff: the service's reason no longer holds, and the failure streak starts afresh.
    if (input.enabled) Object.assign(changes, { disabled_reason: null, failing_since: null });
  }
  if (Object.keys(changes).length === 0) return getEndpoint(db, orgId, id);
  const [row] = await db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.org_id, orgId), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw notFound('Webhook endpoint');
  return publicEndpoint(row);
}

/** Deletes the endpoint and its delivery log (cascade); its pending jobs find nothing and end. */
export async function deleteEndpoint(db: Db, orgId: string, id: string) {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.org_id, orgId), eq(webhookEndpoints.id, id)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw notFound('Webhook endpoint');
}

/** A new secret, shown once; the current one becomes the previous one and keeps signing for 24 h. */
export async function rotateSecret(db: Db, orgId: string, id: string, now = new Date()) {
  const current = await endpointOf(db, orgId, id);
  const [row] = await db
    .update(webhookEndpoints)
    .set({ secret: newWebhookSecret(), previous_secret: current.secret, previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS) })
    .where(and(eq(webhookEndpoints.org_id, orgId), eq(webhookEndpoints.id, id)))
    .returning();
  if (!row) throw notFound('Webhook endpoint');
  return { ...publicEndpoint(row), secret: row.secret };
}

/**
 * Queues a `webhook.test` event to this endpoint only (enabled or not: staff check a receiver before enabling it).
 * It is not in the outbox: its body is kept on the delivery.
 */
export async function sendTestEvent(db: Db, orgId: string, id: string) {
  const endpoint = await endpointOf(db, orgId, id);
  const eventId = uuidv7();
  const payload = {
    id: eventId,
    type: TEST_EVENT_TYPE,
    created_at: new Date().toISOString(),
    data: { object: { endpoint_id: endpoint.id, message: 'Test event sent from Paraphe.' } },
  };
  const row = await db.transaction(async (tx) => {
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ org_id: orgId, endpoint_id: endpoint.id, event_id: eventId, event_type: TEST_EVENT_TYPE, payload, next_attempt_at: new Date() })
      .returning();
    await enqueue(tx, deliverWebhookJob, { delivery_id: delivery!.id, attempt: 0 });
    return delivery!;
  });
  return publicDelivery(row);
}

export async function listDeliveries(db: Db, orgId: string, endpointId: string, query: PageQuery) {
  await endpointOf(db, orgId, endpointId);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.org_id, orgId), eq(webhookDeliveries.endpoint_id, endpointId), afterCursor(webhookDeliveries.id, query.cursor)))
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, publicDelivery);
}

/** Sends a delivery again now, with the same event id, and a fresh retry schedule; older queued attempts lapse. */
export async function redeliver(db: Db, orgId: string, endpointId: string, deliveryId: string) {
  await endpointOf(db, orgId, endpointId);
  return db.transaction(async (tx) => {
    const where = and(eq(webhookDeliveries.org_id, orgId), eq(webhookDeliveries.endpoint_id, endpointId), eq(webhookDeliveries.id, deliveryId));
    const [current] = await tx.select().from(webhookDeliveries).where(where).for('update');
    if (!current) throw notFound('Webhook delivery');
    // An attempt in flight would overwrite the reset with its own result: let it finish first.
    if (current.locked_until && current.locked_until > new Date()) throw conflict('delivery_in_progress', 'An attempt of this delivery is in flight; try again once it ends.');
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', attempt: 0, next_attempt_at: new Date(), locked_until: null })
      .where(where)
      .returning();
    if (!row) throw notFound('Webhook delivery');
    await enqueue(tx, deliverWebhookJob, { delivery_id: row.id, attempt: 0 });
    return publicDelivery(row);
  });
}
