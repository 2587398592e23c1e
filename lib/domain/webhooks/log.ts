import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, webhookDeliveries } from '@/db/schema';
import type { PageQuery } from '@/lib/platform/http';
import { getEndpoint, listDeliveries } from './endpoints';

/**
 * The back-office's delivery log of an endpoint: each delivery with the body it sends (the outbox event, or the test
 * event kept on the delivery), so staff see what the receiver got beside what it answered.
 */
export async function deliveryLog(db: Db, orgId: string, endpointId: string, query: PageQuery) {
  const endpoint = await getEndpoint(db, orgId, endpointId);
  const page = await listDeliveries(db, orgId, endpointId, query);
  const ids = page.data.map((d) => d.event_id);
  const rows = ids.length
    ? await db
        .select()
        .from(events)
        .where(and(eq(events.org_id, orgId), inArray(events.id, ids)))
    : [];
  const bodies = new Map(rows.map((e) => [e.id, { id: e.id, type: e.type, created_at: e.created_at.toISOString(), data: e.payload }]));
  const tests = await testPayloads(db, orgId, page.data.filter((d) => !bodies.has(d.event_id)).map((d) => d.id));
  return {
    endpoint,
    meta: page.meta,
    data: page.data.map((d) => ({ ...d, body: bodies.get(d.event_id) ?? tests.get(d.id) ?? null })),
  };
}

async function testPayloads(db: Db, orgId: string, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return new Map<string, unknown>();
  const rows = await db
    .select({ id: webhookDeliveries.id, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.org_id, orgId), inArray(webhookDeliveries.id, deliveryIds)));
  return new Map(rows.map((r) => [r.id, r.payload as unknown]));
}
