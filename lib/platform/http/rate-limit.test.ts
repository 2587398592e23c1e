import { beforeAll, expect, it } from 'vitest';

// The quota is read when the limiter is first used: set it before anything loads it.
process.env.RATE_LIMIT_POINTS = '3';
process.env.RATE_LIMIT_WINDOW_SECONDS = '30';

const { GET: listEvents } = await import('@/app/v1/events/route');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { call } = await import('@/lib/testing/http');

let keys: string[];
beforeAll(async () => {
  const org = await createTestOrg();
  keys = [await org.key(['events:read']), await org.key(['events:read', 'contacts:read'])];
});

it('counts per key and answers 429 rate_limited with Retry-After once the quota is spent', async () => {
  const [first, second] = keys as [string, string];
  const remaining: (string | null)[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await call(listEvents, 'GET', '/v1/events', { token: first });
    expect(res.status).toBe(200);
    remaining.push(res.headers.get('ratelimit-remaining'));
  }
  expect(remaining).toEqual(['2', '1', '0']);

  const limited = await call(listEvents, 'GET', '/v1/events', { token: first });
  expect(limited.status).toBe(429);
  expect(limited.body).toMatchObject({ code: 'rate_limited', field: null });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(30);
  expect(limited.headers.get('ratelimit-limit')).toBe('3');

  // Another key of the same org has its own quota.
  expect((await call(listEvents, 'GET', '/v1/events', { token: second })).status).toBe(200);
});
