import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getDatabase } from '@/db/client';
import { ApiError } from '@/lib/platform/errors';

/**
 * Per-API-key quota, counted in the database so every app instance shares it. Defaults: 1000 requests per
 * 60 s window; RATE_LIMIT_POINTS and RATE_LIMIT_WINDOW_SECONDS change them. Each process leases points in blocks
 * (below) so that most requests do not write to the database.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const limiters = new Map<string, RateLimiterPostgres>();

/**
 * The limiter counting in the shared rate_limits table under a prefix of its own, so that every instance agrees (the
 * API keys' quota here, the public APIs' per-address limits, the /pay checkouts, the signature forms). One per prefix
 * and quota in the process: a quota read from the environment at each request may change (a test's). The first one
 * made sweeps expired rows of the whole table; one sweeper per process is enough. The database is asked for at each
 * statement, not kept: a limiter outlives a closed one (the test files that share a process each open their own).
 */
export function sharedLimiter(options: { keyPrefix: string; points: number; duration: number }): RateLimiterPostgres {
  const key = `${options.keyPrefix}:${options.points}:${options.duration}`;
  let made = limiters.get(key);
  if (!made) {
    const storeClient = { query: async (q: { text: string; values?: unknown[] }) => (await getDatabase()).sql(q.text, q.values) };
    made = new RateLimiterPostgres({ storeClient, storeType: 'client', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: limiters.size === 0, ...options });
    limiters.set(key, made);
  }
  return made;
}

const apiLimiter = () =>
  sharedLimiter({ keyPrefix: 'api', points: Number(process.env.RATE_LIMIT_POINTS ?? 1000), duration: Number(process.env.RATE_LIMIT_WINDOW_SECONDS ?? 60) });

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}

/**
 * Points taken from the shared store at once, per key and process: 1 % of the quota, at most 50. The store counts
 * a lease as spent, so instances together never serve more than the quota; at worst each leaves under one lease
 * unused when a window ends. With the default quota a request writes to the database once in 10.
 */
export const MAX_LEASE = 50;
export const leaseSize = (points: number) => Math.max(1, Math.min(MAX_LEASE, Math.floor(points / 100)));

/** What this process holds of a key's window: `left` of the last `size` leased, and what the store had left after. */
interface Lease {
  size: number;
  left: number;
  storeRemaining: number;
  resetAt: number;
}
const leasesKey = Symbol.for('paraphe.rateLimitLeases');
// One table per process even when Next.js loads this module in several bundles.
const globalLeases = globalThis as { [leasesKey]?: { leases: Map<string, Lease>; refills: Map<string, Promise<void>> } };
globalLeases[leasesKey] ??= { leases: new Map(), refills: new Map() };
const { leases, refills } = globalLeases[leasesKey];

/** Consumes one request of the key's quota; throws 429 rate_limited with Retry-After when it is spent. */
export async function consumeRateLimit(keyId: string): Promise<RateLimitState> {
  const rl = apiLimiter();
  for (;;) {
    const lease = leases.get(keyId);
    const now = Date.now();
    if (lease && lease.resetAt > now) {
      if (lease.left > 0) {
        lease.left--;
        // The next lease is taken when half of this one is spent, so that a busy key does not wait for the store.
        if (lease.size > 1 && lease.left === Math.floor(lease.size / 2) && lease.storeRemaining > 0) void refill(rl, keyId).catch(() => {});
        return { limit: rl.points, remaining: lease.storeRemaining + lease.left, resetSeconds: Math.ceil((lease.resetAt - now) / 1000) };
      }
      // Nothing comes back to a window before it resets: a spent store answers without being asked again.
      if (lease.storeRemaining <= 0) throw rateLimited(rl.points, lease.resetAt - now);
    }
    await refill(rl, keyId);
  }
}

/** Concurrent requests that find the lease empty wait on one store write. */
function refill(rl: RateLimiterPostgres, keyId: string): Promise<void> {
  let pending = refills.get(keyId);
  if (!pending) {
    pending = takeLease(rl, keyId).finally(() => refills.delete(keyId));
    refills.set(keyId, pending);
  }
  return pending;
}

async function takeLease(rl: RateLimiterPostgres, keyId: string) {
  const previous = leases.get(keyId);
  const storeRemaining = previous && previous.resetAt > Date.now() ? previous.storeRemaining : Number.POSITIVE_INFINITY;
  const size = Math.max(1, Math.min(leaseSize(rl.points), storeRemaining));
  let granted: number;
  let res: RateLimiterRes;
  try {
    res = await rl.consume(keyId, size);
    granted = size;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    res = err;
    // The store counted the whole lease; the part that still fitted under the quota is this process's to serve.
    granted = Math.max(0, size - (res.consumedPoints - rl.points));
  }
  // Points left from the previous lease carry over only within the same window (a lease taken ahead).
  const carried = previous && !res.isFirstInDuration && previous.resetAt > Date.now() ? previous.left : 0;
  leases.set(keyId, {
    size,
    left: carried + granted,
    storeRemaining: res.remainingPoints,
    resetAt: Date.now() + Math.max(1, res.msBeforeNext),
  });
}

function rateLimited(limit: number, msBeforeReset: number): ApiError {
  const state = { limit, remaining: 0, resetSeconds: Math.ceil(msBeforeReset / 1000) };
  return new ApiError(429, 'rate_limited', `Rate limit exceeded: retry in ${state.resetSeconds} s.`, null, {
    ...rateLimitHeaders(state),
    'Retry-After': String(Math.max(1, state.resetSeconds)),
  });
}
