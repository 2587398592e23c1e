import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { forgetTokens, PA_HAND_LIMITS, testPaConnection } from '..';
import { connectToSandbox, SANDBOX_SECRET, sandboxPaFixture } from '../testing';

/* « Tester la connexion » against the sandbox PA (in-process, one known client): what worked, what failed, nothing stored. */

const CLIENT = 'paraphe-good';
const sandbox = sandboxPaFixture({ clients: { [CLIENT]: SANDBOX_SECRET } });
let a: TestOrg;
let b: TestOrg;
const typed = (over: Record<string, unknown> = {}) => ({ base_url: sandbox.url, client_id: CLIENT, client_secret: SANDBOX_SECRET, ...over });
const refusal = (promise: Promise<unknown>) => promise.then(() => null, (err: { status: number; code: string; message: string; field: string | null }) => err);

beforeAll(async () => {
  a = await createTestOrg();
  b = await createTestOrg();
  await connectToSandbox(a, sandbox.url, {}, CLIENT);
});
beforeEach(() => {
  sandbox.pa.state.reset();
  forgetTokens();
});

describe('testPaConnection', () => {
  it('the connection as typed: token, Flow service and directory answer; a blank secret is the stored one', async () => {
    const result = await testPaConnection(a.db, a.org.id, typed());
    expect(result).toEqual({
      ok: true,
      base_url: sandbox.url,
      checks: [
        { step: 'token', outcome: 'ok', error: null },
        { step: 'flow', outcome: 'ok', error: null },
        { step: 'directory', outcome: 'ok', error: null },
      ],
    });
    expect((await testPaConnection(a.db, a.org.id, typed({ client_secret: '' }))).ok).toBe(true);
  });

  it('a wrong secret fails at the token, the rest not tried; a PA down fails at the Flow service', async () => {
    const wrong = await testPaConnection(a.db, a.org.id, typed({ client_secret: 'not-the-secret-9999' }));
    expect(wrong.ok).toBe(false);
    expect(wrong.checks.map((c) => [c.step, c.outcome, c.error?.kind ?? null])).toEqual([
      ['token', 'failed', 'auth'],
      ['flow', 'skipped', null],
      ['directory', 'skipped', null],
    ]);
    expect(JSON.stringify(wrong)).not.toContain('not-the-secret-9999');
    sandbox.pa.state.switches.down = true;
    const down = await testPaConnection(b.db, b.org.id, typed());
    expect(down.checks.map((c) => [c.step, c.outcome, c.error?.kind ?? null])).toEqual([
      ['token', 'ok', null],
      ['flow', 'failed', 'server'],
      ['directory', 'skipped', null],
    ]);
    const closed = await testPaConnection(b.db, b.org.id, typed({ base_url: 'http://127.0.0.1:9' }));
    expect(closed.checks[0]).toMatchObject({ step: 'token', outcome: 'failed', error: { kind: 'unreachable' } });
  });

  it('bad input is a 422 naming the field; another org’s stored secret is not used', async () => {
    expect(await refusal(testPaConnection(a.db, a.org.id, typed({ base_url: 'ftp://pa.example.fr' })))).toMatchObject({
      status: 422,
      code: 'validation_error',
      field: 'pdp_config.base_url',
    });
    expect(await refusal(testPaConnection(a.db, a.org.id, typed({ client_id: ' ' })))).toMatchObject({ status: 422, field: 'pdp_config.client_id' });
    expect(await refusal(testPaConnection(a.db, a.org.id, { ...typed(), extra: 1 }))).toMatchObject({ status: 422, field: 'pdp_config.extra' });
    // b has nothing stored: a blank secret is missing, not a's.
    expect(await refusal(testPaConnection(b.db, b.org.id, typed({ client_secret: '' })))).toMatchObject({
      status: 422,
      code: 'validation_error',
      field: 'pdp_config.client_secret',
    });
  });

  it(`at most ${PA_HAND_LIMITS.connectionTest.points} tests a minute per org: then 429, the other org unaffected`, async () => {
    const org = await createTestOrg();
    for (let i = 0; i < PA_HAND_LIMITS.connectionTest.points; i++) await testPaConnection(org.db, org.org.id, typed());
    expect(await refusal(testPaConnection(org.db, org.org.id, typed()))).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(sandbox.pa.state.flows).toEqual([]);
    const other = await createTestOrg();
    expect((await testPaConnection(other.db, other.org.id, typed())).ok).toBe(true);
  });
});
