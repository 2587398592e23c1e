import { RateLimiterRes } from 'rate-limiter-flexible';
import { sharedLimiter } from '@/lib/platform/http';
import { ApiError } from '@/lib/platform/errors';

/**
 * What staff may ask of the PA by hand, per org, counted in the shared rate_limits table (every instance agrees): a
 * PA is a third party with its own quotas, and a button clicked in a loop must not spend them.
 */
export const PA_HAND_LIMITS = {
  /** « Tester la connexion »: each test is three calls. */
  connectionTest: { points: 5, duration: 60 },
  /** « Actualiser »: one lifecycle poll (a few calls) per 15 s; the 5-minute schedule does the rest. */
  refresh: { points: 1, duration: 15 },
} as const;

/** Counts one use; 429 rate_limited with Retry-After past the limit. */
export async function limitPaCall(kind: keyof typeof PA_HAND_LIMITS, orgId: string): Promise<void> {
  try {
    await sharedLimiter({ keyPrefix: `pa_${kind}`, ...PA_HAND_LIMITS[kind] }).consume(orgId);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, 'rate_limited', `Asked of the PA too often: retry in ${seconds} s.`, null, { 'Retry-After': String(seconds) });
  }
}
