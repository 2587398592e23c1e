import { encode } from 'next-auth/jwt';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listEvents } from '@/app/v1/events/route';
import { authSecret } from '@/lib/platform/config';
import { authOptions } from './session';
import { writeTestEvent } from '@/lib/platform/events/testing';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

let a: TestOrg;
let b: TestOrg;
let userId: string;

const cookieFor = async (token: Record<string, unknown>) =>
  `next-auth.session-token=${await encode({ token, secret: authSecret() })}`;

beforeAll(async () => {
  a = await createTestOrg();
  b = await createTestOrg();
  const user = await createUser(a.db, { email: `staff-${a.org.id}@example.fr`, password: 'long enough password' });
  userId = user.id;
  await addMembership(a.db, a.org.id, userId, 'member');
  await writeTestEvent(a.db, a.org.id, 'session.visible', {});
  await writeTestEvent(b.db, b.org.id, 'session.hidden', {});
});

describe('staff session cookie on /v1', () => {
  it('acts in the active org of the session', async () => {
    const res = await call(listEvents, 'GET', '/v1/events', { headers: { cookie: await cookieFor({ sub: userId, orgId: a.org.id }) } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(['session.visible']);
  });

  it('answers 403 no_active_org without an org, or for an org the user is not a member of', async () => {
    for (const orgId of [null, b.org.id]) {
      const res = await call(listEvents, 'GET', '/v1/events', { headers: { cookie: await cookieFor({ sub: userId, orgId }) } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'no_active_org', message: expect.any(String), field: null });
    }
  });

  it('answers 401 for a forged or foreign-secret cookie', async () => {
    const foreign = `next-auth.session-token=${await encode({ token: { sub: userId, orgId: a.org.id }, secret: 'another-secret' })}`;
    for (const cookie of ['next-auth.session-token=garbage', foreign]) {
      const res = await call(listEvents, 'GET', '/v1/events', { headers: { cookie } });
      expect(res.status).toBe(401);
    }
  });

  it('never lets a bad Authorization header fall back to the cookie', async () => {
    const res = await call(listEvents, 'GET', '/v1/events', {
      headers: { cookie: await cookieFor({ sub: userId, orgId: a.org.id }), authorization: 'Bearer nope' },
    });
    expect(res.status).toBe(401);
  });
});

describe('cookies', () => {
  it('are Secure when the app is served over https, and only then', () => {
    const before = process.env.APP_BASE_URL;
    try {
      process.env.APP_BASE_URL = 'https://paraphe.example';
      expect(authOptions().useSecureCookies).toBe(true);
      process.env.APP_BASE_URL = 'http://localhost:3000';
      expect(authOptions().useSecureCookies).toBe(false);
    } finally {
      if (before === undefined) delete process.env.APP_BASE_URL;
      else process.env.APP_BASE_URL = before;
    }
  });
});

describe('org switcher (next-auth jwt callback)', () => {
  const jwt = (params: Record<string, unknown>) =>
    authOptions().callbacks!.jwt!(params as Parameters<NonNullable<NonNullable<ReturnType<typeof authOptions>['callbacks']>['jwt']>>[0]);

  it('signs in on the oldest membership, switches to another org the user belongs to, never to a foreign one', async () => {
    const c = await createTestOrg();
    await addMembership(c.db, c.org.id, userId, 'admin');
    const signedIn = await jwt({ token: { sub: userId }, user: { id: userId } });
    expect(signedIn.orgId).toBe(a.org.id);

    const switched = await jwt({ token: { ...signedIn }, trigger: 'update', session: { orgId: c.org.id } });
    expect(switched.orgId).toBe(c.org.id);

    const refused = await jwt({ token: { ...switched }, trigger: 'update', session: { orgId: b.org.id } });
    expect(refused.orgId).toBe(c.org.id);
  });
});
