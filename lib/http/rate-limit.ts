import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { getDatabase } from '@/db/client';
import { ApiError } from '@/lib/errors';

/**
 * Per-API-key quota, counted in the database so every app instance shares it. Defaults: 1000 requests per
 * 60 s window; RATE_LIMIT_POINTS and RATE_LIMIT_WINDOW_SECONDS change them.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

let limiter: Promise<RateLimiterPostgres> | undefined;

async function getLimiter(): Promise<RateLimiterPostgres> {
  limiter ??= getDatabase().then(
    (database) =>
      new RateLimiterPostgres({
        storeClient: { query: (q: { text: string; values?: unknown[] }) => database.sql(q.text, q.values) },
        storeType: 'client',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: true,
        keyPrefix: 'api',
        points: Number(process.env.RATE_LIMIT_POINTS ?? 1000),
        duration: Number(process.env.RATE_LIMIT_WINDOW_SECONDS ?? 60),
      }),
  );
  return limiter;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}

/** Consumes one request of the key's quota; throws 429 rate_limited with Retry-After when it is spent. */
export async function consumeRateLimit(keyId: string): Promise<RateLimitState> {
  const rl = await getLimiter();
  const toState = (res: RateLimiterRes): RateLimitState => ({
    limit: rl.points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.ceil(res.msBeforeNext / 1000),
  });
  try {
    return toState(await rl.consume(keyId));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const state = toState(err);
    throw new ApiError(429, 'rate_limited', `Rate limit exceeded: retry in ${state.resetSeconds} s.`, null, {
      ...rateLimitHeaders(state),
      'Retry-After': String(Math.max(1, state.resetSeconds)),
    });
  }
}
