import { and, eq, like, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { events } from '@/db/schema';

/**
 * GDPR erasure (art. 17): every stored event of `family` ('contact') whose object is `tombstone.id` now carries the
 * tombstone instead, so neither GET /v1/events nor a redelivery hands out the erased data again. The outbox is
 * this unit's table: the owner of the object asks, the events unit rewrites.
 */
export async function redactEventObjects(tx: Tx, orgId: string, family: string, tombstone: { id: string }) {
  await tx
    .update(events)
    .set({ payload: { object: tombstone } })
    .where(and(eq(events.org_id, orgId), like(events.type, `${family}.%`), sql`${events.payload}->'object'->>'id' = ${tombstone.id}`));
}
