import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { publicEvent } from './events';

/**
 * A raw outbox row of any type, for the tests that use /v1/events as a plain resource (isolation, pagination,
 * idempotency). Application code records catalogued events only, through recordEvent.
 */
export async function writeTestEvent(db: Db, orgId: string, type: string, object: unknown) {
  const [row] = await db.insert(events).values({ org_id: orgId, type, payload: { object } }).returning();
  return publicEvent(row!);
}
