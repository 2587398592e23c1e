import { and, eq, inArray, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@/db/client';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import type { EmittedEvent } from '@/lib/platform/events';
import { enqueueMany } from '@/lib/platform/jobs';
import { deliverWebhookJob } from './deliver';

/**
 * Runs in the transaction that records the events (lib/platform/events calls it through the manifest's `onEvents`): one
 * delivery row per (event, enabled endpoint of its org subscribed to its type) and one job each, so a delivery
 * exists exactly when its event does.
 */
export async function fanOutToEndpoints(tx: Db, emitted: readonly EmittedEvent[]) {
  if (emitted.length === 0) return;
  const orgIds = [...new Set(emitted.map((e) => e.org_id))];
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, org_id: webhookEndpoints.org_id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.org_id, orgIds), eq(webhookEndpoints.enabled, true)));
  if (endpoints.length === 0) return;
  const rows = emitted.flatMap((event) =>
    endpoints
      .filter((ep) => ep.org_id === event.org_id && (ep.events.includes('*') || ep.events.includes(event.type)))
      .map((ep) => ({ id: uuidv7(), org_id: event.org_id, endpoint_id: ep.id, event_id: event.id, event_type: event.type })),
  );
  if (rows.length === 0) return;
  // One statement for a bulk change's thousands of rows (the same jsonb trick as recordEvents).
  await tx.execute(sql`
    insert into ${webhookDeliveries} (id, org_id, endpoint_id, event_id, event_type, next_attempt_at)
    select (r->>'id')::uuid, (r->>'org_id')::uuid, (r->>'endpoint_id')::uuid, (r->>'event_id')::uuid, r->>'event_type', now()
    from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as r
    on conflict (event_id, endpoint_id) do nothing
  `);
  await enqueueMany(
    tx,
    rows.map((r) => ({ def: deliverWebhookJob, data: { delivery_id: r.id, attempt: 0 } })),
  );
}
