import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listEvents } from '@/app/v1/events/route';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
});

describe('Authorization: Bearer <API_KEY>', () => {
  it('takes the scheme case-insensitively and surrounding spaces, and nothing after the key', async () => {
    const key = await org.key(['events:read']);
    for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `  Bearer   ${key}  `]) {
      expect((await call(listEvents, 'GET', '/v1/events', { headers: { authorization } })).status, authorization).toBe(200);
    }
    for (const authorization of [`Bearer ${key} extra`, `Bearer ${key},${key}`, `Bearer`, `${key}`, '']) {
      const res = await call(listEvents, 'GET', '/v1/events', { headers: { authorization } });
      expect([res.status, res.body], authorization).toEqual([401, { code: 'unauthorized', message: expect.any(String), field: null }]);
    }
  });
});

describe('rate quota per key', () => {
  it('counts a call refused for its scope and answers it with the RateLimit headers, like every keyed response', async () => {
    const key = await org.key(['contacts:read']);
    const first = await call(listEvents, 'GET', '/v1/events', { token: key });
    const second = await call(listEvents, 'GET', '/v1/events', { token: key });
    expect([first.status, first.body.code, second.status]).toEqual([403, 'forbidden', 403]);
    expect(first.headers.get('ratelimit-limit')).toBe('1000');
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
    expect(Number(second.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  });
});
