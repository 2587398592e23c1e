import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { webhooksAllowPrivate } from '@/lib/platform/config';
import { defineJob, enqueue, enqueueMany, type JobDefinition } from '@/lib/platform/jobs';
import type { Resolver } from '@/lib/platform/outbound';
import { batcher, Gates } from './gate';
import { DISABLE_AFTER_FAILING_MS, notifyEndpointDisabled } from './notify';
import { type PostResult, postWebhook } from './post';
import { TEST_EVENT_TYPE } from './schemas';
import { signedHeaders } from './signing';
import { countWebhookDelivery, outboundCall } from '@/lib/platform/telemetry';

/** Waits after the 1st, 2nd… failed attempt (DESIGN §10); after the last one fails the delivery is `failed`. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/**
 * Requests to one endpoint in flight at once in a worker process: a slow receiver holds at most this many. 4 capped a
 * healthy receiver at 4 ÷ its round trip, i.e. 40–80/s on a loaded 2-core host (bench:webhooks).
 */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 16;
export const DELIVERY_TIMEOUT_MS = 15_000;
/** A lease lasts the timeout and this margin (the statements around the request): then its worker is presumed dead. */
const LEASE_MARGIN_MS = 30_000;
/** A Retry-After longer than this is not honoured beyond it. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

export interface DeliverOptions {
  now?: () => Date;
  timeoutMs?: number;
  allowPrivate?: boolean;
  resolve?: Resolver;
  /** 0–1, for the jitter (Math.random by default). */
  random?: () => number;
}

export interface DeliverJobData {
  delivery_id: string;
  /** The attempts the delivery had when this job was written: a job made stale by a redelivery does nothing. */
  attempt: number;
}

export const deliverWebhookJob = defineJob<DeliverJobData>({
  name: 'webhooks.deliver',
  // Failed attempts schedule their own retry (below); these retries only cover a worker that died or threw.
  retryLimit: 3,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 60,
  // Each worker fetches a batch and attempts it at once (the endpoint gates bound each receiver's share); a batch is
  // done when its attempts are, or after DETACH_AFTER_MS (deliverBatch), so a slow receiver never holds a worker.
  workers: 12,
  batchSize: 32,
  handle: async (data, { db }) => {
    await attemptDelivery(db, data);
  },
  handleBatch: (jobs, { db }) =>
    deliverBatch(
      db,
      jobs.map((j) => j.data),
    ),
});

/** The wait before retry number `attempt` (1-based), ±10 % so that a receiver's outage does not end in a stampede. */
export function retryDelaySeconds(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_SCHEDULE_SECONDS[attempt - 1] ?? RETRY_SCHEDULE_SECONDS.at(-1)!;
  return Math.max(1, Math.round(base * (0.9 + 0.2 * random())));
}

/** Retry-After as seconds (a number of seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Math.min(Number(raw.trim()), MAX_RETRY_AFTER_SECONDS);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

export type AttemptOutcome = 'succeeded' | 'retry' | 'failed' | 'disabled' | 'deferred' | 'skipped';

type Claimed = {
  delivery: typeof webhookDeliveries.$inferSelect;
  endpoint: typeof webhookEndpoints.$inferSelect;
  event: typeof events.$inferSelect | null;
};

/** This process's endpoint gates: at most MAX_IN_FLIGHT_PER_ENDPOINT requests to an endpoint in flight at once here. */
const gates = new Gates(MAX_IN_FLIGHT_PER_ENDPOINT);

type Success = { id: string; attempt: number; at: Date; status: number; durationMs: number; body: string };
type Deferral = { data: DeliverJobData; startAfter: number; lease?: Date };

/**
 * The statements concurrent attempts share (one each per flush, see batcher): the successes and the deferrals of a
 * fetched batch cost a statement each instead of one per delivery.
 */
function writers(db: Db) {
  return {
    /** The common outcome in one statement per flush: the deliveries succeeded, their endpoints no longer failing. */
    succeed: batcher<Success, void>(async (items) => {
      const rows = JSON.stringify(
        items.map((i) => ({ id: i.id, attempt: i.attempt, at: i.at.toISOString(), status: i.status, duration: i.durationMs, body: i.body })),
      );
      await db.execute(sql`
        with v as (
          select * from jsonb_to_recordset(${rows}::jsonb) as v(id uuid, attempt int, at timestamptz, status int, duration int, body text)
        ), done as (
          update ${webhookDeliveries} d set status = 'succeeded', attempt = v.attempt, locked_until = null, last_attempt_at = v.at,
            next_attempt_at = null, response_status = v.status, response_duration_ms = v.duration, response_body = v.body,
            last_error = null, updated_at = now()
          from v where d.id = v.id
          returning d.endpoint_id
        )
        update ${webhookEndpoints} set failing_since = null, updated_at = now()
        where id in (select endpoint_id from done) and failing_since is not null
      `);
      return items.map(() => undefined);
    }),
    /** A delivery that cannot go now comes back as a new job (not counted as an attempt), its lease let go. */
    defer: batcher<Deferral, void>(async (items) => {
      await enqueueMany(
        db,
        items.map((i) => ({ def: deliverWebhookJob as JobDefinition<never>, data: i.data, startAfter: i.startAfter })),
      );
      const leased = items.flatMap((i) => (i.lease ? [{ id: i.data.delivery_id, until: i.lease.toISOString() }] : []));
      if (leased.length > 0)
        await db.execute(sql`
          update ${webhookDeliveries} d set locked_until = null, updated_at = now()
          from jsonb_to_recordset(${JSON.stringify(leased)}::jsonb) as r(id uuid, until timestamptz)
          where d.id = r.id and d.locked_until = r.until
        `);
      return items.map(() => undefined);
    }),
  };
}
type Writers = ReturnType<typeof writers>;
const writersByDb = new WeakMap<Db, Writers>();
function writersFor(db: Db): Writers {
  const known = writersByDb.get(db);
  if (known) return known;
  const w = writers(db);
  writersByDb.set(db, w);
  return w;
}

/**
 * Takes the deliveries of a batch for this attempt, and reads them with their endpoints and events, in one
 * statement. A delivery is leased (`locked_until`) when it is still pending at the job's attempt number, no other
 * attempt holds it (a lease ends with its attempt, or expires if its worker dies), and its endpoint is enabled (or
 * it is a test event); the others are read as they were, for attemptOne to say why not.
 */
async function takeDeliveries(db: Db, list: readonly DeliverJobData[], now: Date, until: Date): Promise<Map<string, Claimed & { leased: boolean }>> {
  const wanted = JSON.stringify(list.map((d) => ({ id: d.delivery_id, attempt: d.attempt })));
  const leased = db.$with('leased').as(
    db
      .update(webhookDeliveries)
      .set({ locked_until: until })
      .where(
        and(
          sql`(${webhookDeliveries.id}, ${webhookDeliveries.attempt}) in (select r.id, r.attempt from jsonb_to_recordset(${wanted}::jsonb) as r(id uuid, attempt int))`,
          eq(webhookDeliveries.status, 'pending'),
          or(isNull(webhookDeliveries.locked_until), lte(webhookDeliveries.locked_until, now)),
          or(
            eq(webhookDeliveries.event_type, TEST_EVENT_TYPE),
            sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.id} = ${webhookDeliveries.endpoint_id} and ${webhookEndpoints.enabled})`,
          ),
        ),
      )
      .returning({ id: webhookDeliveries.id }),
  );
  const rows = await db
    .with(leased)
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events, leased: sql<boolean>`${leased.id} is not null` })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .leftJoin(events, and(isNull(webhookDeliveries.payload), eq(events.id, webhookDeliveries.event_id)))
    .leftJoin(leased, eq(leased.id, webhookDeliveries.id))
    .where(
      inArray(
        webhookDeliveries.id,
        list.map((d) => d.delivery_id),
      ),
    );
  return new Map(rows.map((r) => [r.delivery.id, r]));
}

/** The body receivers get: `{id, type, created_at, data: {object}}`, identical on every attempt. */
function deliveryBody({ delivery, event }: Claimed): string | null {
  if (delivery.payload) return JSON.stringify(delivery.payload);
  if (!event) return null;
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.created_at.toISOString(), data: event.payload });
}

/** The secrets that sign now: the current one, and the previous one until its 24 h after a rotation. */
export function signingSecrets(endpoint: typeof webhookEndpoints.$inferSelect, now: Date): string[] {
  const previous = endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? [endpoint.previous_secret] : [];
  return [endpoint.secret, ...previous];
}

/** One attempt of one delivery, and what follows from its answer (DESIGN §10). */
export async function attemptDelivery(db: Db, data: DeliverJobData, options: DeliverOptions = {}): Promise<AttemptOutcome> {
  const [outcome] = await attemptDeliveries(db, [data], options);
  if (outcome instanceof Error) throw outcome;
  return outcome!;
}

/**
 * A fetched batch of deliveries: one read, then each attempt at once, gated per endpoint; resolves with each one's
 * outcome, or the error that made it throw (its job is then failed and retried by pg-boss alone).
 */
export async function attemptDeliveries(db: Db, list: readonly DeliverJobData[], options: DeliverOptions = {}): Promise<Array<AttemptOutcome | Error>> {
  const settled = await Promise.allSettled(startAttempts(db, list, options));
  return settled.map((r) => (r.status === 'fulfilled' ? r.value : asError(r.reason)));
}

const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));

function startAttempts(db: Db, list: readonly DeliverJobData[], options: DeliverOptions): Promise<AttemptOutcome>[] {
  const now = (options.now ?? (() => new Date()))();
  const lease = new Date(now.getTime() + (options.timeoutMs ?? DELIVERY_TIMEOUT_MS) + LEASE_MARGIN_MS);
  const taken = takeDeliveries(db, list, now, lease);
  // Two jobs of one delivery in a batch: the first one makes the attempt.
  const seen = new Set<string>();
  return list.map(async (data) => {
    const first = !seen.has(data.delivery_id);
    seen.add(data.delivery_id);
    const claimed = (await taken).get(data.delivery_id);
    return attemptOne(db, data, claimed && { ...claimed, leased: claimed.leased && first }, now, lease, options);
  });
}

/** A batch job lets go of its attempts still running after this long (see deliverBatch). */
export const DETACH_AFTER_MS = 1000;

/**
 * The `webhooks.deliver` batch: the attempts run at once, and the batch is done when they are, or after
 * DETACH_AFTER_MS: a slow receiver's attempts then go on in the background, each covered by a job due after its
 * lease (same attempt number), so the worker fetches more at once and a process that dies mid-attempt still leaves
 * a job to send it again. Resolves with each job's error (null when it is done or covered).
 */
export async function deliverBatch(db: Db, list: readonly DeliverJobData[], options: DeliverOptions = {}): Promise<Array<Error | null>> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const results: Array<Error | null | undefined> = list.map(() => undefined);
  const attempts = startAttempts(db, list, options).map((attempt, i) =>
    attempt.then(
      () => {
        results[i] = null;
      },
      (error) => {
        results[i] = asError(error);
      },
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(attempts), new Promise((resolve) => (timer = setTimeout(resolve, DETACH_AFTER_MS)))]);
  clearTimeout(timer);
  const running = list.filter((_, i) => results[i] === undefined);
  if (running.length > 0) {
    await enqueueMany(
      db,
      running.map((data) => ({ def: deliverWebhookJob as JobDefinition<never>, data, startAfter: Math.ceil((timeoutMs + LEASE_MARGIN_MS) / 1000) + 1 })),
    );
  }
  return results.map((r) => r ?? null);
}

async function attemptOne(
  db: Db,
  data: DeliverJobData,
  claimed: (Claimed & { leased: boolean }) | undefined,
  seen: Date,
  lease: Date,
  options: DeliverOptions,
): Promise<AttemptOutcome> {
  const clock = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const w = writersFor(db);
  if (!claimed) return 'skipped';
  const { delivery, endpoint } = claimed;
  if (!claimed.leased) {
    if (delivery.status !== 'pending' || delivery.attempt !== data.attempt) return 'skipped';
    if (delivery.locked_until && delivery.locked_until > seen) {
      // Another attempt holds the lease, or a worker died holding it: look again when it ends, so a delivery whose
      // worker died is never left pending without a job.
      await w.defer({ data, startAfter: Math.ceil((delivery.locked_until.getTime() - seen.getTime()) / 1000) + 1 });
      return 'deferred';
    }
    // A test event is staff's explicit request: it goes even to a disabled endpoint (checked before enabling it).
    if (!endpoint.enabled && delivery.event_type !== TEST_EVENT_TYPE) {
      await db
        .update(webhookDeliveries)
        .set({ status: 'failed', next_attempt_at: null, last_error: 'endpoint disabled' })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempt, data.attempt)));
    }
    // Otherwise a duplicate job of this delivery took it since: that one makes the attempt.
    return 'skipped';
  }
  // The endpoint's turn: a slot of its gate, at once or after a short wait. Busy for longer, the delivery comes back
  // when a slot should be free (not every second: a slow receiver's backlog would keep the workers re-queuing it).
  const gate = gates.get(endpoint.id);
  const slot = await gate.acquire();
  if (!slot) {
    await w.defer({ data, startAfter: gate.deferSeconds(), lease });
    return 'deferred';
  }
  let sent: Awaited<ReturnType<typeof send>>;
  try {
    sent = await send(claimed, clock(), timeoutMs, options);
  } catch (error) {
    gate.release(slot, null);
    throw error;
  }
  // The slot bounds the requests a receiver has at once: it is free as soon as the answer is in.
  gate.release(slot, sent.result.durationMs);
  return record(db, w, claimed, sent, clock(), options);
}

async function send(claimed: Claimed, at: Date, timeoutMs: number, options: DeliverOptions) {
  const { delivery, endpoint } = claimed;
  const body = deliveryBody(claimed);
  const result: PostResult =
    body === null
      ? { kind: 'error', error: 'event not found', durationMs: 0 }
      : await outboundCall('webhook', 'POST', endpoint.url, async (span) => {
          const posted = await postWebhook(endpoint.url, body, signedHeaders(signingSecrets(endpoint, at), delivery.event_id, at, body), {
            timeoutMs,
            allowPrivate: options.allowPrivate ?? webhooksAllowPrivate(),
            resolve: options.resolve,
          });
          span.setAttributes(posted.kind === 'response' ? { 'http.response.status_code': posted.status } : { 'error.type': posted.error.slice(0, 100) });
          return posted;
        });
  return { at, body, result };
}

/** What follows from an attempt's answer: its row, its endpoint's state and its retry (DESIGN §10). */
async function record(db: Db, w: Writers, { delivery, endpoint }: Claimed, { at, body, result }: Awaited<ReturnType<typeof send>>, now: Date, options: DeliverOptions): Promise<AttemptOutcome> {
  const attempt = delivery.attempt + 1;
  const status = result.kind === 'response' ? result.status : null;
  let outcome: AttemptOutcome;
  let nextSeconds: number | null = null;
  if (status !== null && status >= 200 && status < 300) outcome = 'succeeded';
  else if (status === 410) outcome = 'disabled';
  else if (attempt >= MAX_ATTEMPTS || body === null) outcome = 'failed';
  else {
    outcome = 'retry';
    nextSeconds = retryDelaySeconds(attempt, options.random);
    if (result.kind === 'response' && (status === 429 || (status ?? 0) >= 500)) {
      const retryAfter = parseRetryAfter(result.headers['retry-after'], now);
      if (retryAfter !== null) nextSeconds = Math.max(nextSeconds, retryAfter);
    }
  }

  countWebhookDelivery(outcome);
  const values = {
    attempt,
    status: outcome === 'succeeded' ? 'succeeded' : outcome === 'retry' ? 'pending' : 'failed',
    locked_until: null,
    last_attempt_at: at,
    next_attempt_at: nextSeconds === null ? null : new Date(now.getTime() + nextSeconds * 1000),
    response_status: status,
    response_duration_ms: result.durationMs,
    response_body: result.kind === 'response' ? result.body : null,
    last_error: result.kind === 'error' ? result.error : null,
  } as const;
  if (outcome === 'succeeded') {
    await w.succeed({ id: delivery.id, attempt, at, status: status!, durationMs: result.durationMs, body: values.response_body ?? '' });
    return outcome;
  }

  await db.transaction(async (tx) => {
    await tx.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, delivery.id));
    if (outcome === 'disabled') {
      // 410 Gone: the receiver says this URL is no more; nothing more is sent to it until staff enable it again.
      await tx.update(webhookEndpoints).set({ enabled: false, disabled_reason: 'gone' }).where(eq(webhookEndpoints.id, endpoint.id));
    } else {
      await tx
        .update(webhookEndpoints)
        .set({ failing_since: sql`coalesce(${webhookEndpoints.failing_since}, ${now.toISOString()}::timestamptz)` })
        .where(eq(webhookEndpoints.id, endpoint.id));
      // Failing for 5 days: disabled, once (the row is locked by the update above), and its admins are told.
      const [disabled] = await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabled_reason: 'failing' })
        .where(
          and(
            eq(webhookEndpoints.id, endpoint.id),
            eq(webhookEndpoints.enabled, true),
            lte(webhookEndpoints.failing_since, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS)),
          ),
        )
        .returning();
      if (disabled) await notifyEndpointDisabled(tx, disabled, status !== null ? `HTTP ${status}` : result.kind === 'error' ? result.error : null);
    }
    if (nextSeconds !== null) await enqueue(tx, deliverWebhookJob, { delivery_id: delivery.id, attempt }, { startAfter: nextSeconds });
  });
  return outcome;
}
