import { and, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { webhooksAllowPrivate } from '@/lib/config';
import { defineJob, enqueue } from '@/lib/jobs';
import { DISABLE_AFTER_FAILING_MS, notifyEndpointDisabled } from './notify';
import { postWebhook } from './post';
import { TEST_EVENT_TYPE } from './schemas';
import { signedHeaders } from './signing';
import type { Resolver } from './ssrf';

/** Waits after the 1st, 2nd… failed attempt (DESIGN §10); after the last one fails the delivery is `failed`. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** Attempts of one endpoint in flight at once, across every worker: a slow receiver holds at most this many. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
export const DELIVERY_TIMEOUT_MS = 15_000;
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
  workers: 8,
  handle: async (data, { db }) => {
    await attemptDelivery(db, data);
  },
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

/**
 * Takes the delivery for one attempt, in a short transaction that locks its endpoint: at most
 * MAX_IN_FLIGHT_PER_ENDPOINT attempts of an endpoint hold a lease at once (more wait a second), and a lease expires
 * after the timeout if its worker dies, so pg-boss's retry of the job can try again. Four round trips in all (the
 * delivery, its endpoint and its event in one read; the bound checked in the lease's update): bench:webhooks showed
 * the attempt's cost is mostly its statements.
 */
async function claim(db: Db, data: DeliverJobData, now: Date, leaseMs: number): Promise<Claimed | 'skipped' | 'deferred'> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
      .leftJoin(events, and(isNull(webhookDeliveries.payload), eq(events.id, webhookDeliveries.event_id)))
      .where(eq(webhookDeliveries.id, data.delivery_id))
      .for('update', { of: webhookEndpoints });
    if (!found) return 'skipped';
    const { delivery, endpoint, event } = found;
    if (delivery.status !== 'pending' || delivery.attempt !== data.attempt) return 'skipped';
    if (delivery.locked_until && delivery.locked_until > now) {
      // Another attempt holds the lease, or a worker died holding it: look again when it ends, so a delivery whose
      // worker died is never left pending without a job.
      await enqueue(tx, deliverWebhookJob, data, { startAfter: Math.ceil((delivery.locked_until.getTime() - now.getTime()) / 1000) + 1 });
      return 'deferred';
    }
    // A test event is staff's explicit request: it goes even to a disabled endpoint (checked before enabling it).
    if (!endpoint.enabled && delivery.event_type !== TEST_EVENT_TYPE) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'failed', next_attempt_at: null, last_error: 'endpoint disabled' })
        .where(eq(webhookDeliveries.id, delivery.id));
      return 'skipped';
    }
    // The endpoint's row is locked: the count and the lease are one step for every worker.
    const [leased] = await tx
      .update(webhookDeliveries)
      .set({ locked_until: new Date(now.getTime() + leaseMs) })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          sql`(select count(*) from ${webhookDeliveries} as o where o.endpoint_id = ${endpoint.id} and o.id <> ${delivery.id} and o.locked_until > ${now.toISOString()}::timestamptz) < ${MAX_IN_FLIGHT_PER_ENDPOINT}`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (!leased) {
      await enqueue(tx, deliverWebhookJob, data, { startAfter: 1 });
      return 'deferred';
    }
    return { delivery, endpoint, event };
  });
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
  const clock = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const claimed = await claim(db, data, clock(), timeoutMs + 30_000);
  if (typeof claimed === 'string') return claimed;
  const { delivery, endpoint } = claimed;

  const body = deliveryBody(claimed);
  const at = clock();
  const result =
    body === null
      ? ({ kind: 'error', error: 'event not found', durationMs: 0 } as const)
      : await postWebhook(endpoint.url, body, signedHeaders(signingSecrets(endpoint, at), delivery.event_id, at, body), {
          timeoutMs,
          allowPrivate: options.allowPrivate ?? webhooksAllowPrivate(),
          resolve: options.resolve,
        });

  const attempt = delivery.attempt + 1;
  const now = clock();
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
    // The common case in one statement (no transaction): the delivery, and its endpoint no longer failing.
    const done = db.$with('done').as(db.update(webhookDeliveries).set(values).where(eq(webhookDeliveries.id, delivery.id)).returning({ endpoint_id: webhookDeliveries.endpoint_id }));
    await db
      .with(done)
      .update(webhookEndpoints)
      .set({ failing_since: null })
      .where(and(inArray(webhookEndpoints.id, db.select({ id: done.endpoint_id }).from(done)), isNotNull(webhookEndpoints.failing_since)));
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
