import { and, desc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { events } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { afterCursor, type PageQuery, toPage } from '@/lib/platform/http';
import { enqueueMany } from '@/lib/platform/jobs';
import { type EventType, type InternalEventType, isEventType, isInternalEventType } from './catalogue';
import { type EmittedEvent, eventRegistry } from './registry';

/** Only catalogued types, each object as its owner's schema says: what the outbox holds is what webhooks promise. */
function checkEvent(type: string, object: unknown, internal = false) {
  if (!isEventType(type) && !isInternalEventType(type)) throw new Error(`Event type ${type} is not in the catalogue (lib/platform/events/catalogue.ts)`);
  if (internal !== isInternalEventType(type)) throw new Error(`${type} is ${internal ? 'public: record it with recordEvent' : 'internal: record it with recordInternalEvent'}`);
  const schema = eventRegistry().schemas[type as EventType | InternalEventType];
  if (!schema) throw new Error(`No module declares the payload of ${type}`);
  const parsed = schema.safeParse(object);
  if (!parsed.success) throw new Error(`${type} payload does not match its schema: ${parsed.error.message}`);
}

/**
 * The subscribers' jobs for these events, written in the same transaction: the one way a module reacts to another's
 * change. Public events also go to the `onEvents` hooks — webhooks' outbox fan-out (one delivery row per endpoint),
 * the one named exception (lib/platform/manifest.ts) — which internal ones never reach.
 */
async function fanOut(tx: Db, emitted: readonly EmittedEvent[], { hooks: runHooks = true } = {}) {
  const { subscriptions, hooks } = eventRegistry();
  const jobs = emitted.flatMap((event) => (subscriptions.get(event.type) ?? []).filter((s) => s.when?.(event) ?? true).map((s) => ({ def: s.job, data: s.data(event) })));
  await enqueueMany(tx, jobs as never);
  if (runHooks) for (const hook of hooks) await hook(tx, emitted);
}

/**
 * Writes an event to the outbox and its subscribers' jobs. Call it with the transaction that makes the change, so
 * the event and what reacts to it exist exactly when the change does. `object` is the resource as the API shows it.
 */
export async function recordEvent(tx: Db, orgId: string, type: EventType, object: unknown) {
  checkEvent(type, object);
  const [row] = await tx.insert(events).values({ org_id: orgId, type, payload: { object } }).returning();
  await fanOut(tx, [{ id: row!.id, org_id: orgId, type, object }]);
  return publicEvent(row!);
}

/**
 * Completes the object of an event written earlier in the same transaction with fields its writer learns only later
 * (a finalization's number and hash, decided under the chain lock: lib/domain/documents). Top-level keys, replaced or
 * added; the whole object is checked again against its schema. The SQL function events_merge_object (migration 0037)
 * does the same inside a statement that cannot call back here.
 */
export async function mergeEventObject(tx: Db, eventId: string, type: EventType, object: Record<string, unknown>) {
  checkEvent(type, object);
  await tx.execute(sql`select events_merge_object(${eventId}::uuid, ${JSON.stringify(object)}::jsonb)`);
}

/**
 * An internal event (lib/platform/events/catalogue.ts, `internal`): checked against its owner's schema like any other,
 * but written only as its subscribers' jobs, in the caller's transaction — no outbox row, so no /v1/events entry and
 * no webhook delivery.
 */
export async function recordInternalEvent(tx: Db, orgId: string, type: InternalEventType, object: unknown) {
  checkEvent(type, object, true);
  await fanOut(tx, [{ id: uuidv7(), org_id: orgId, type, object }], { hooks: false });
}

/**
 * Writes one event per object (bulk changes: imports, merges) in a single statement of the same transaction.
 * The rows travel as one jsonb parameter: Drizzle's multi-row builder cost 70–240 ms of CPU per 1000 events.
 */
export async function recordEvents(tx: Db, orgId: string, type: EventType, objects: unknown[]) {
  if (objects.length === 0) return;
  for (const object of objects) checkEvent(type, object);
  const emitted = objects.map((object) => ({ id: uuidv7(), org_id: orgId, type, object }));
  const rows = JSON.stringify(emitted.map((e) => ({ id: e.id, payload: { object: e.object } })));
  await tx.execute(
    sql`insert into ${events} (id, org_id, type, payload) select (e->>'id')::uuid, ${orgId}, ${type}, e->'payload' from jsonb_array_elements(${rows}::jsonb) as e`,
  );
  await fanOut(tx, emitted);
}

/** The delivery payload: `{id, type, created_at, data: {object}}`. */
export function publicEvent(row: typeof events.$inferSelect) {
  return { id: row.id, type: row.type, created_at: row.created_at, data: row.payload as { object: unknown } };
}

export const EventListQuery = z.object({ type: z.string().trim().min(1).optional().meta({ description: 'Only events of this token (invoice.finalized).' }) });

export async function listEvents(db: Db, orgId: string, query: PageQuery & z.infer<typeof EventListQuery>) {
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.org_id, orgId),
        query.type ? eq(events.type, query.type) : undefined,
        afterCursor(events.id, query.cursor),
      ),
    )
    .orderBy(desc(events.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, publicEvent);
}

export async function getEvent(db: Db, orgId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.org_id, orgId), eq(events.id, eventId)));
  if (!row) throw notFound('Event');
  return publicEvent(row);
}
