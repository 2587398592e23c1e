import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import * as enrollmentRoute from '@/app/v1/invoice/einvoicing/enrollment/route';
import { einvoicingEnrollments } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { type CallResult, call } from '@/lib/testing/http';
import { forgetTokens } from '../afnor/http';
import { connectToSandbox, sandboxPaFixture } from '../testing';
import { checkEnrollment, dueEnrollments, PENDING_GIVE_UP_MS } from './enrollment';

/*
 * GET/POST /v1/invoice/einvoicing/enrollment against the sandbox PA (in-process): defaults from the org's legal
 * identity, 200 enrolled / 202 pending / 422 refused or invalid / 409 not configured, the pending check, and the
 * endpoints' 401/403.
 */

const sandbox = sandboxPaFixture();
const path = '/v1/invoice/einvoicing/enrollment';
const get = (token?: string) => call(enrollmentRoute.GET, 'GET', path, { token });
const post = (token: string | undefined, body: unknown = {}) => call(enrollmentRoute.POST, 'POST', path, { token, body });
const expectError = (res: CallResult, status: number, code: string, field?: string | null) =>
  expect([res.status, res.body.code, ...(field === undefined ? [] : [res.body.field])], JSON.stringify(res.body)).toEqual([status, code, ...(field === undefined ? [] : [field])]);

async function connectedOrg(): Promise<{ org: TestOrg; token: string }> {
  const org = await createTestOrg();
  await connectToSandbox(org, sandbox.url);
  return { org, token: await org.key() };
}

beforeEach(() => {
  sandbox.pa.state.reset();
  forgetTokens();
});

describe('GET /v1/invoice/einvoicing/enrollment', () => {
  it('not_enrolled before any request (every field null)', async () => {
    const org = await createTestOrg();
    const res = await get(await org.key());
    expect([res.status, res.body]).toEqual([
      200,
      { status: 'not_enrolled', siren: null, siret: null, routing_code: null, electronic_address: null, reason: null, requested_at: null, enrolled_at: null },
    ]);
  });

  it('401 without a key, 403 without invoice:read', async () => {
    const org = await createTestOrg();
    expectError(await get(), 401, 'unauthorized');
    expectError(await get(await org.key(['contacts:read'])), 403, 'forbidden');
  });
});

describe('POST /v1/invoice/einvoicing/enrollment', () => {
  it('enrolls with the org’s legal identity: 200 enrolled, 0225:<SIREN>, dates; the PA holds the line; asking again changes nothing', async () => {
    const { org, token } = await connectedOrg();
    const res = await post(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      status: 'enrolled',
      siren: '732829320',
      siret: '73282932000074',
      routing_code: null,
      electronic_address: '0225:732829320',
      reason: null,
      requested_at: expect.stringMatching(/Z$/),
      enrolled_at: expect.stringMatching(/Z$/),
    });
    const lines = [...sandbox.pa.state.lines.values()];
    expect(lines.map((l) => [l.tenant, l.addressingIdentifier, l.platformStatus])).toEqual([[`org-${org.org.id}`, '732829320', 'Enabled']]);
    const [row] = await org.db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, org.org.id));
    expect(row).toMatchObject({ status: 'enrolled', pa_directory_line_id: String(lines[0]!.idInstance) });
    const again = await post(token);
    expect([again.status, again.body]).toEqual([200, res.body]);
    expect((await get(token)).body).toEqual(res.body);
  });

  it('with a routing code: the SIREN_SIRET_ROUTINGCODE line', async () => {
    const { token } = await connectedOrg();
    const res = await post(token, { routing_code: 'COMPTA' });
    expect([res.status, res.body.electronic_address, res.body.routing_code]).toEqual([200, '0225:732829320_73282932000074_COMPTA', 'COMPTA']);
  });

  it('202 pending when the PA does not enable the line at once; the check makes it enrolled', async () => {
    const { org, token } = await connectedOrg();
    const res = await post(token, { siren: '202000006', siret: null });
    expect([res.status, res.body.status, res.body.siren, res.body.siret, res.body.enrolled_at]).toEqual([202, 'pending', '202000006', null, null]);
    expect(await dueEnrollments(org.db)).toContain(org.org.id);
    expect((await post(token, { siren: '202000006', siret: null })).status).toBe(202);
    const checked = await checkEnrollment(org.db, org.org.id);
    expect([checked.status, checked.enrolled_at]).toEqual(['enrolled', expect.stringMatching(/Z$/)]);
    expect(await dueEnrollments(org.db)).not.toContain(org.org.id);
  });

  it('pending, then failed with its reason when the PA withdraws the line; the PA down leaves it pending', async () => {
    const { org, token } = await connectedOrg();
    expect((await post(token, { siren: '501000004', siret: null })).status).toBe(202);
    sandbox.pa.state.switches.down = true;
    expect((await checkEnrollment(org.db, org.org.id)).status).toBe('pending');
    sandbox.pa.state.switches.down = false;
    const failed = await checkEnrollment(org.db, org.org.id);
    expect([failed.status, failed.reason]).toEqual(['failed', 'The PA withdrew the directory line (not found any more).']);
    const [row] = await org.db.select().from(einvoicingEnrollments).where(eq(einvoicingEnrollments.org_id, org.org.id));
    expect([row!.failed_at instanceof Date, row!.checks]).toEqual([true, 2]);
  });

  it('pending for more than 7 days: failed', async () => {
    const { org, token } = await connectedOrg();
    await post(token, { siren: '202000006', siret: null });
    // The sandbox would enable it at the next read: a PA that never does is this line read once already.
    const line = [...sandbox.pa.state.lines.values()][0]!;
    line.readsBefore = 99;
    const later = new Date(Date.now() + PENDING_GIVE_UP_MS + 60_000);
    const failed = await checkEnrollment(org.db, org.org.id, later);
    expect([failed.status, failed.reason]).toEqual(['failed', 'The PA did not confirm the directory line within 7 days.']);
  });

  it('422 enrollment_refused when the PA refuses: kept as failed with the reason and dates; a new request may succeed', async () => {
    const { token } = await connectedOrg();
    const res = await post(token, { siren: '422000000', siret: null });
    expectError(res, 422, 'enrollment_refused', null);
    expect(res.body.message).toMatch(/errorCode SIREN_NOT_ELIGIBLE/);
    const state = (await get(token)).body;
    expect(state).toMatchObject({ status: 'failed', siren: '422000000', electronic_address: '0225:422000000', requested_at: expect.any(String), enrolled_at: null });
    expect(state.reason).toMatch(/SIREN_NOT_ELIGIBLE/);
    expect((await post(token)).body.status).toBe('enrolled');
  });

  it.each([
    [{ siren: '732829321' }, 'siren'],
    [{ siren: '73282932' }, 'siren'],
    [{ siret: '73282932000075' }, 'siret'],
    [{ siren: '202000006', siret: '73282932000074' }, 'siret'],
    [{ routing_code: 'a b' }, 'routing_code'],
    [{ siren: '202000006', siret: null, routing_code: 'COMPTA' }, 'routing_code'],
    [{ unknown: 1 }, 'unknown'],
  ])('422 on %j (field %s), nothing asked of the PA', async (body, field) => {
    const { token } = await connectedOrg();
    expectError(await post(token, body), 422, 'validation_error', field);
    expect(sandbox.pa.state.lines.size).toBe(0);
  });

  it('409 einvoicing_not_configured without pdp_config', async () => {
    const org = await createTestOrg();
    expectError(await post(await org.key()), 409, 'einvoicing_not_configured', 'pdp_config');
  });

  it('503 pa_unavailable while the PA is down (nothing stored); 409 pa_refused on credentials the PA refuses', async () => {
    const { token } = await connectedOrg();
    sandbox.pa.state.switches.down = true;
    const down = await post(token);
    expectError(down, 503, 'pa_unavailable');
    expect((await get(token)).body.status).toBe('not_enrolled');
    sandbox.pa.state.switches.down = false;
    sandbox.pa.state.options.clients = { someone: 'else' };
    forgetTokens();
    try {
      expectError(await post(token), 409, 'pa_refused', 'pdp_config');
    } finally {
      sandbox.pa.state.options.clients = null;
    }
  });

  it('401 without a key, 403 without invoice:write; one org’s enrollment is not another’s', async () => {
    const { token } = await connectedOrg();
    const other = await connectedOrg();
    expectError(await post(undefined), 401, 'unauthorized');
    expectError(await post(await other.org.key(['invoice:read'])), 403, 'forbidden');
    expect((await post(token)).body.status).toBe('enrolled');
    expect((await get(other.token)).body.status).toBe('not_enrolled');
  });
});
