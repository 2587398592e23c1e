import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { defineJob } from '@/lib/platform/jobs';

/** A recorded JSON answer that a replay of the same request returns verbatim. */
export interface StoredReply {
  status: number;
  body: unknown;
}

/** How long a key is remembered; the purge job deletes older records. */
export const IDEMPOTENCY_TTL_HOURS = 24;

interface IdempotentRequest {
  orgId: string;
  principal: string;
  key: string;
  method: string;
  path: string;
  rawBody: string;
}

/**
 * Runs `execute` once per (org, principal, Idempotency-Key). The key is claimed before running so two
 * concurrent requests cannot both execute; a 5xx or a thrown error releases it so the client may retry.
 */
export async function withIdempotency(
  db: Db,
  req: IdempotentRequest,
  execute: () => Promise<StoredReply | null>,
): Promise<StoredReply & { replayed: boolean }> {
  if (req.key.length > 255) throw new ApiError(422, 'validation_error', 'Idempotency-Key is too long.', 'Idempotency-Key');
  const requestHash = createHash('sha256').update(`${req.method} ${req.path}\n${req.rawBody}`).digest('hex');
  const scope = and(
    eq(idempotencyKeys.org_id, req.orgId),
    eq(idempotencyKeys.principal, req.principal),
    eq(idempotencyKeys.key, req.key),
  );

  const [claim] = await db
    .insert(idempotencyKeys)
    .values({ org_id: req.orgId, principal: req.principal, key: req.key, method: req.method, path: req.path, request_hash: requestHash })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });

  if (!claim) {
    const [prior] = await db.select().from(idempotencyKeys).where(scope);
    if (!prior) throw new ApiError(409, 'idempotency_in_progress', 'Retry: the first request with this key just ended.');
    if (prior.request_hash !== requestHash) {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was used with another request; use a new key for a new request.',
        'Idempotency-Key',
      );
    }
    if (prior.status === null) {
      throw new ApiError(409, 'idempotency_in_progress', 'A request with this Idempotency-Key is still being processed.');
    }
    return { status: prior.status, body: prior.response_body, replayed: true };
  }

  const release = () => db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, claim.id));
  let reply: StoredReply | null;
  try {
    reply = await execute();
  } catch (err) {
    // Client errors are answers too and are replayed; anything unexpected frees the key for a retry.
    if (err instanceof ApiError && err.status < 500 && err.status !== 429 && err.status !== 409) {
      await db
        .update(idempotencyKeys)
        .set({ status: err.status, response_body: err.toBody() })
        .where(eq(idempotencyKeys.id, claim.id));
    } else {
      await release();
    }
    throw err;
  }
  if (!reply || reply.status >= 500) {
    await release();
    return { ...(reply ?? { status: 204, body: null }), replayed: false };
  }
  await db
    .update(idempotencyKeys)
    .set({ status: reply.status, response_body: reply.body ?? null })
    .where(eq(idempotencyKeys.id, claim.id));
  return { ...reply, replayed: false };
}

export async function purgeIdempotencyKeys(db: Db, now = new Date()) {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_HOURS * 3600_000);
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, cutoff)).returning({ id: idempotencyKeys.id });
  return rows.length;
}

/** Hourly: forgets the recorded answers older than their replay window. */
export const purgeIdempotencyJob = defineJob<Record<string, never>>({
  name: 'maintenance.purge-idempotency-keys',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  cron: '17 * * * *',
  async handle(_data, { db }) {
    await purgeIdempotencyKeys(db);
  },
});
