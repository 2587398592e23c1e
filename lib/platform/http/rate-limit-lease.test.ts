import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';

// A quota of 300 per window: each process leases 3 points at a time (1 %). Set before the limiter loads.
process.env.RATE_LIMIT_POINTS = '300';
process.env.RATE_LIMIT_WINDOW_SECONDS = '60';

const { GET: listEvents } = await import('@/app/v1/events/route');
const { rateLimits } = await import('@/db/schema');
const { createApiKey } = await import('@/lib/platform/auth');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { call } = await import('@/lib/testing/http');
const { leaseSize } = await import('./rate-limit');

async function newKey() {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'leased', scopes: ['events:read'] });
  const stored = async () => (await db.select().from(rateLimits).where(eq(rateLimits.key, `api:${apiKey.id}`)))[0];
  return { db, key, keyId: apiKey.id, stored };
}

it('sizes a lease at 1 % of the quota, between 1 and 50 points', () => {
  expect([leaseSize(3), leaseSize(300), leaseSize(1000), leaseSize(1_000_000)]).toEqual([1, 3, 10, 50]);
});

it('counts every request in the headers while the store is written once per lease', async () => {
  const { key, stored } = await newKey();
  const remaining: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await call(listEvents, 'GET', '/v1/events', { token: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('300');
    remaining.push(Number(res.headers.get('ratelimit-remaining')));
  }
  expect(remaining).toEqual([299, 298, 297, 296, 295, 294, 293]);
  // Seven requests: leases of 3 taken as each one is half spent, so the store counts a little ahead of them.
  const row = await stored();
  expect(row!.points % 3).toBe(0);
  expect(row!.points).toBeGreaterThanOrEqual(7);
  expect(row!.points).toBeLessThanOrEqual(12);
});

it('never serves more than the quota when other instances share it, and answers 429 without asking the store again', async () => {
  const { db, key, stored } = await newKey();
  for (let i = 0; i < 4; i++) expect((await call(listEvents, 'GET', '/v1/events', { token: key })).status).toBe(200);
  const leased = (await stored())!.points;
  const heldHere = leased - 4;
  // Other instances spend the quota down to its last 5 points.
  await db.update(rateLimits).set({ points: 295 }).where(eq(rateLimits.key, (await stored())!.key));

  let served = 0;
  let limited: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < 20 && !limited; i++) {
    const res = await call(listEvents, 'GET', '/v1/events', { token: key });
    if (res.status === 429) limited = res;
    else served++;
  }
  // What this process still held, plus exactly what the store had left: no more, none lost.
  expect(served).toBe(heldHere + 5);
  expect(limited!.body).toMatchObject({ code: 'rate_limited', field: null });
  expect(limited!.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);

  const spent = (await stored())!.points;
  for (let i = 0; i < 3; i++) expect((await call(listEvents, 'GET', '/v1/events', { token: key })).status).toBe(429);
  expect((await stored())!.points).toBe(spent);
});
