import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as listEvents } from '@/app/v1/events/route';
import { emails } from '@/db/schema';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { clientAddress, normalizeAddress, parseSignInError, secretQueryParam } from '@/lib/platform/auth';
import { authOptions } from './session';
import { type SignInPolicy, signInPolicy, throttledSignIn } from './throttle';

// Small thresholds, read at every attempt (the defaults are 5/10 per account, 10/50 per address).
Object.assign(process.env, {
  SIGNIN_DELAY_AFTER: '2',
  SIGNIN_LOCK_AFTER: '4',
  SIGNIN_MAX_DELAY_SECONDS: '60',
  SIGNIN_WINDOW_SECONDS: '900',
  SIGNIN_LOCK_SECONDS: '900',
  SIGNIN_ADDRESS_DELAY_AFTER: '100',
  SIGNIN_ADDRESS_BLOCK_AFTER: '100',
  API_KEY_FAILURES_PER_MINUTE: '3',
  API_KEY_FAILURE_BLOCK_SECONDS: '300',
});

const PASSWORD = 'the right password';
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Moves the clock the limiter reads (Date only: timers and the database run as usual). */
function advance(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(Date.now() + seconds * 1000));
}

async function newUser() {
  const email = `staff-${randomUUID().slice(0, 8)}@example.fr`;
  const user = await createUser(org.db, { email, password: PASSWORD });
  await addMembership(org.db, org.org.id, user.id, 'member');
  return { ...user, email };
}

const octet = () => Math.floor(Math.random() * 250) + 1;
/** A fresh address per test and run: the counters live in the database, which PostgreSQL keeps between runs. */
const randomIp = () => `198.51.${octet()}.${octet()}`;
/** What a client behind nothing sends when it writes its own X-Forwarded-For: Next.js keeps it; the rightmost counts. */
const newAddress = () => `203.0.113.${octet()}, ${randomIp()}`;

/** The real sign-in path: next-auth's credentials authorize, with the request headers next-auth passes. */
async function signIn(email: string, password: string, forwardedFor: string): Promise<string> {
  const provider = authOptions().providers[0] as unknown as {
    options: { authorize: (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string } | null> };
  };
  try {
    const user = await provider.options.authorize({ email, password }, { headers: { 'x-forwarded-for': forwardedFor } });
    return user ? 'ok' : 'CredentialsSignin';
  } catch (err) {
    return (err as Error).message;
  }
}

async function lockNotices(to: string) {
  const rows = await org.db
    .select({ id: emails.id, job_id: emails.job_id, template_data: emails.template_data, to: emails.to })
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'account_locked')));
  return rows.filter((row) => row.to.includes(to));
}

describe('sign-in per account', () => {
  it('makes each attempt wait after the first failures, then locks: the right password is refused, one e-mail per lock', async () => {
    const user = await newUser();
    const from = newAddress();
    expect(await signIn(user.email, 'wrong 1', from)).toBe('CredentialsSignin');
    expect(await signIn(user.email, 'wrong 2', from)).toBe('CredentialsSignin');
    // Two failures: the next attempt waits 1 s, whatever its password.
    expect(await signIn(user.email, PASSWORD, from)).toBe('TooManyAttempts:1');
    advance(1.1);
    expect(await signIn(user.email.toUpperCase(), 'wrong 3', from)).toBe('CredentialsSignin');
    // Then 2 s.
    advance(1);
    expect(await signIn(user.email, PASSWORD, from)).toBe('TooManyAttempts:1');
    advance(1.1);
    expect(await signIn(user.email, 'wrong 4', from)).toBe('CredentialsSignin');

    // The fourth failure locks for 15 minutes: even the right password is refused.
    expect(await signIn(user.email, PASSWORD, from)).toBe('AccountLocked:900');
    expect(await signIn(user.email, PASSWORD, newAddress())).toMatch(/^AccountLocked:\d+$/);
    advance(600);
    expect(await signIn(user.email, PASSWORD, from)).toBe('AccountLocked:300');

    // The owner is told once, in the lock's transaction: the e-mail row and its send job.
    const notices = await lockNotices(user.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.template_data).toMatchObject({ account_email: user.email, failures: 4, address: expect.stringMatching(/^198\.51\./) });
    const jobs = (await org.db.execute(sql`select name from pgboss.job where id = ${notices[0]!.job_id}`)) as unknown as { rows: Array<{ name: string }> };
    expect(jobs.rows).toEqual([{ name: 'email.send' }]);

    // Once the lock is over, the right password works.
    advance(301);
    expect(await signIn(user.email, PASSWORD, from)).toBe('ok');
    expect(await lockNotices(user.email)).toHaveLength(1);
  });

  it('clears the failures on a success', async () => {
    const user = await newUser();
    const from = newAddress();
    expect(await signIn(user.email, 'wrong 1', from)).toBe('CredentialsSignin');
    expect(await signIn(user.email, PASSWORD, from)).toBe('ok');
    // Counting starts again: two failures before any wait, four before a lock.
    expect(await signIn(user.email, 'wrong 2', from)).toBe('CredentialsSignin');
    expect(await signIn(user.email, 'wrong 3', from)).toBe('CredentialsSignin');
    expect(await signIn(user.email, 'wrong 4', from)).toBe('TooManyAttempts:1');
  });

  it('throttles an e-mail no account has exactly the same way, and writes no e-mail', async () => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.fr`;
    const from = newAddress();
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await signIn(email, `guess ${i}`, from));
      advance(60);
    }
    expect(answers).toEqual(['CredentialsSignin', 'CredentialsSignin', 'CredentialsSignin', 'CredentialsSignin']);
    expect(await signIn(email, 'guess 5', from)).toMatch(/^AccountLocked:\d+$/);
    const rows = await org.db.select({ id: emails.id }).from(emails).where(sql`${email} = any(${emails.to})`);
    expect(rows).toEqual([]);
  });

  it('lets a burst of parallel guesses through one at a time once the first failures are spent', async () => {
    const email = `burst-${randomUUID().slice(0, 8)}@example.fr`;
    const policy: SignInPolicy = { ...signInPolicy(), account: { delayAfter: 2, maxDelaySeconds: 60, lockAfter: 4, lockSeconds: 900, windowSeconds: 900 } };
    let checked = 0;
    const verify = async () => {
      checked++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return null;
    };
    // The clock stands still: on a loaded machine the burst can outlast the 2 s wait the third failure sets, and a
    // guess let in after it would be right to pass, but not what this test is about.
    advance(0);
    const answers = await Promise.allSettled(Array.from({ length: 12 }, () => throttledSignIn(org.db, { email, address: randomIp() }, verify, policy)));
    // Two free failures, then one attempt holding the wait slot: the other nine are refused unchecked.
    expect(checked).toBeLessThanOrEqual(3);
    const refused = answers.filter((a) => a.status === 'rejected').map((a) => ((a as PromiseRejectedResult).reason as Error).message);
    expect(refused.length).toBe(12 - checked);
    for (const message of refused) expect(message).toMatch(/^TooManyAttempts:\d+$/);
  });

  it('keeps the slot for as long as its check takes, even past the first delay (1 s)', async () => {
    const email = `slow-${randomUUID().slice(0, 8)}@example.fr`;
    const policy: SignInPolicy = { ...signInPolicy(), account: { delayAfter: 2, maxDelaySeconds: 60, lockAfter: 4, lockSeconds: 900, windowSeconds: 900 } };
    const fail = () => throttledSignIn(org.db, { email, address: randomIp() }, async () => null, policy);
    await fail();
    await fail();
    // The second failure asks for 1 s before the next guess.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    let checked = 0;
    const slow = throttledSignIn(org.db, { email, address: randomIp() }, async () => {
      checked++;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return null;
    }, policy);
    // While the third guess is being checked (longer than its 1 s delay), a fourth is refused unchecked.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await expect(fail()).rejects.toThrow(/^TooManyAttempts:\d+$/);
    await slow;
    expect(checked).toBe(1);
  });
});

describe('sign-in per address', () => {
  it('blocks an address after its failures across accounts, even for a right password; other addresses go on', async () => {
    process.env.SIGNIN_ADDRESS_BLOCK_AFTER = '5';
    try {
      const from = newAddress();
      for (let i = 0; i < 5; i++) {
        expect(await signIn(`spray-${i}-${randomUUID().slice(0, 6)}@example.fr`, 'Password1', from)).toBe('CredentialsSignin');
      }
      const user = await newUser();
      expect(await signIn(user.email, PASSWORD, from)).toBe('AddressBlocked:900');
      expect(await signIn(user.email, PASSWORD, newAddress())).toBe('ok');
      // The refusal was not counted against the account: nothing waits there.
      advance(901);
      expect(await signIn(user.email, PASSWORD, from)).toBe('ok');
    } finally {
      process.env.SIGNIN_ADDRESS_BLOCK_AFTER = '100';
    }
  });

  it('does not clear an address’s failures on a success (one valid account cannot launder a spray)', async () => {
    process.env.SIGNIN_ADDRESS_BLOCK_AFTER = '3';
    try {
      const from = newAddress();
      const user = await newUser();
      expect(await signIn(`a-${randomUUID().slice(0, 6)}@example.fr`, 'x', from)).toBe('CredentialsSignin');
      expect(await signIn(user.email, PASSWORD, from)).toBe('ok');
      expect(await signIn(`b-${randomUUID().slice(0, 6)}@example.fr`, 'x', from)).toBe('CredentialsSignin');
      expect(await signIn(user.email, PASSWORD, from)).toBe('ok');
      expect(await signIn(`c-${randomUUID().slice(0, 6)}@example.fr`, 'x', from)).toBe('CredentialsSignin');
      expect(await signIn(user.email, PASSWORD, from)).toBe('AddressBlocked:900');
    } finally {
      process.env.SIGNIN_ADDRESS_BLOCK_AFTER = '100';
    }
  });
});

describe('invalid API keys per address', () => {
  const invalid = 'paraphe_pk_live_00000000000000000000000000000000';

  it('answers 429 rate_limited with Retry-After past the threshold, while a valid key from the same address works', async () => {
    const valid = await org.key(['events:read']);
    const from = { 'x-forwarded-for': randomIp() };
    for (let i = 0; i < 3; i++) {
      const res = await call(listEvents, 'GET', '/v1/events', { token: invalid, headers: from });
      expect(res.status).toBe(401);
    }
    for (const token of [invalid, 'paraphe_pk_live_malformed']) {
      const limited = await call(listEvents, 'GET', '/v1/events', { token, headers: from });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ code: 'rate_limited', message: expect.stringContaining('invalid API keys'), field: null });
      expect(Number(limited.headers.get('retry-after'))).toBe(300);
    }
    const basic = await call(listEvents, 'GET', '/v1/events', { headers: { ...from, authorization: 'Basic Zm9vOmJhcg==' } });
    expect(basic.status).toBe(429);

    expect((await call(listEvents, 'GET', '/v1/events', { token: valid, headers: from })).status).toBe(200);
    expect((await call(listEvents, 'GET', '/v1/events', { token: invalid, headers: { 'x-forwarded-for': randomIp() } })).status).toBe(401);

    advance(301);
    expect((await call(listEvents, 'GET', '/v1/events', { token: invalid, headers: from })).status).toBe(401);
  });

  it('refuses a key, a password or a token in the query string without using it', async () => {
    const valid = await org.key(['events:read']);
    for (const query of [{ api_key: valid }, { password: 'x' }, { access_token: 'x' }, { apiKey: 'x' }]) {
      const res = await call(listEvents, 'GET', '/v1/events', { token: valid, query });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'credentials_in_query', message: expect.stringContaining('never go in a URL'), field: Object.keys(query)[0] });
    }
  });
});

describe('client address', () => {
  it('is the rightmost X-Forwarded-For entry, or the one TRUST_PROXY places from the right', () => {
    expect(clientAddress(new Headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('198.51.100.1');
    expect(clientAddress({ 'x-forwarded-for': 'forged, 198.51.100.2' })).toBe('198.51.100.2');
    expect(clientAddress({})).toBe('unknown');
    process.env.TRUST_PROXY = '2';
    try {
      expect(clientAddress({ 'x-forwarded-for': 'forged, 198.51.100.3, 10.0.0.2' })).toBe('198.51.100.3');
    } finally {
      delete process.env.TRUST_PROXY;
    }
  });

  it('normalizes addresses: IPv4-mapped, ports, IPv6 by /64, anything else unknown', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('203.0.113.9:8080')).toBe('203.0.113.9');
    expect(normalizeAddress('[2001:db8::1]:443')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('2001:DB8:0:0:ffff::2')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('not an address')).toBe('unknown');
    expect(normalizeAddress('999.1.1.1')).toBe('unknown');
  });
});

describe('codes and names', () => {
  it('parses the throttle codes next-auth carries, and nothing else as one', () => {
    expect(parseSignInError('AccountLocked:900')).toEqual({ kind: 'AccountLocked', seconds: 900 });
    expect(parseSignInError('TooManyAttempts:2')).toEqual({ kind: 'TooManyAttempts', seconds: 2 });
    expect(parseSignInError('CredentialsSignin')).toEqual({ kind: 'CredentialsSignin', seconds: null });
    expect(parseSignInError('<script>')).toEqual({ kind: 'Other', seconds: null });
    expect(parseSignInError('AccountLocked:9 and more')).toEqual({ kind: 'Other', seconds: null });
    expect(parseSignInError(undefined)).toBeNull();
  });

  it('recognizes secret query parameter names', () => {
    for (const name of ['password', 'Password', 'user_password', 'pwd', 'api_key', 'api-key', 'apiKey', 'apikey', 'token', 'access_token', 'client_secret', 'secret']) {
      expect(secretQueryParam(new URLSearchParams({ [name]: 'x' })), name).toBe(name);
    }
    for (const name of ['callbackUrl', 'error', 'cursor', 'limit', 'q', 'email', 'csrf', 'keyword', 'monkey']) {
      expect(secretQueryParam(new URLSearchParams({ [name]: 'x' })), name).toBeNull();
    }
  });
});
