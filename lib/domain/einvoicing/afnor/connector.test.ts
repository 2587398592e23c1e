import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { readCdar } from '../lifecycle/cdar';
import { type PaConnector, PaError, type PaFlow } from '../port';
import { ciiInvoice, SANDBOX_SECRET, UNKNOWN_BUYER_SIREN, sandboxPaFixture } from '../testing';
import { AfnorConnector } from './connector';
import { forgetTokens } from './http';

/*
 * The AFNOR connector against the sandbox PA (in-process, on a free port): every port method, every scenario the
 * sandbox offers, and the failures (credentials, down, slow, a lost answer).
 */

const sandbox = sandboxPaFixture({ clients: { seller: SANDBOX_SECRET, buyer: 'buyer-secret-0002' } });
const connector = (clientId = 'seller', secret = SANDBOX_SECRET, timeoutMs?: number): PaConnector =>
  new AfnorConnector({ provider: 'afnor', base_url: sandbox.url, token_url: null, client_id: clientId, client_secret: secret }, { timeoutMs });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let seq = 0;
const submit = async (pa: PaConnector, buyerSiren: string) => {
  const file = ciiInvoice({ number: `T-${++seq}`, buyerSiren, sellerSiren: '732829320' });
  const flow = await pa.submitFlow(file, sha(file), { trackingId: `track-${seq}`, name: `T-${seq}.xml`, syntax: 'CII', profile: 'CIUS', processingRule: 'B2B' });
  return { flow, number: `T-${seq}` };
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
/** The statuses reported for one invoice number, from the lifecycle flows the seller can search. */
async function statusesOf(pa: PaConnector, number: string) {
  const flows = await pa.searchFlows({ flowTypes: ['CustomerInvoiceLC'], directions: ['In'], limit: 100 });
  const out: { code: string; reasonCode: string | null; role: string; amount: number | null }[] = [];
  for (const f of flows) {
    const got = await pa.getFlow(f.flowId);
    for (const s of readCdar(got.file)) if (s.invoice.number === number) out.push({ code: s.code, reasonCode: s.reasonCode, role: s.issuerRole, amount: s.amount?.cents ?? null });
  }
  return out;
}

beforeEach(() => {
  sandbox.pa.state.reset();
  forgetTokens();
});

describe('AFNOR connector — Flow service', () => {
  it('submits a flow with its SHA-256 (OAuth client credentials, Bearer) and gets it back, metadata and original file', async () => {
    const pa = connector();
    const { flow } = await submit(pa, '987654321');
    expect(flow).toEqual({ flowId: expect.any(String), trackingId: `track-${seq}`, submittedAt: expect.stringMatching(/Z$/) });
    const got = await pa.getFlow(flow.flowId);
    expect(got.flow).toMatchObject({ flowId: flow.flowId, trackingId: `track-${seq}`, flowType: 'CustomerInvoice', direction: 'Out', syntax: 'CII', ack: { status: 'Ok' } });
    expect(got.file.equals(ciiInvoice({ number: `T-${seq}`, buyerSiren: '987654321', sellerSiren: '732829320' }))).toBe(true);
    expect([got.contentType, got.fileName, got.sha256]).toEqual(['application/xml', `T-${seq}.xml`, sha(got.file)]);
  });

  it('refuses a file whose SHA-256 differs (422 ChecksumMismatch), and a second flow with the same trackingId', async () => {
    const pa = connector();
    const file = ciiInvoice();
    const error = (await failure(pa.submitFlow(file, 'f'.repeat(64), { trackingId: 'x', name: 'x.xml', syntax: 'CII' }))) as PaError;
    expect([error.kind, error.status, error.code, error.retryable]).toEqual(['rejected', 422, 'ChecksumMismatch', false]);
    await pa.submitFlow(file, sha(file), { trackingId: 'same', name: 'a.xml', syntax: 'CII' });
    const again = (await failure(pa.submitFlow(file, sha(file), { trackingId: 'same', name: 'a.xml', syntax: 'CII' }))) as PaError;
    expect([again.kind, again.code]).toEqual(['rejected', 'AlreadyExistingFlow']);
    expect(await pa.searchFlows({ trackingId: 'same' })).toHaveLength(1);
  });

  it('accepted then delivered: 200 Déposée, 202 Reçue, 203 Mise à disposition, in order, each once', async () => {
    const pa = connector();
    const { number } = await submit(pa, '987654321');
    expect(await statusesOf(pa, number)).toEqual([
      { code: '200', reasonCode: null, role: 'seller_pa', amount: null },
      { code: '202', reasonCode: null, role: 'buyer_pa', amount: null },
      { code: '203', reasonCode: null, role: 'buyer_pa', amount: null },
    ]);
  });

  it.each([
    ['213000003', [['213', 'REJ_SEMAN']]],
    ['210000006', [['200', null], ['202', null], ['203', null], ['210', 'DEST_ERR']]],
    ['207000001', [['200', null], ['202', null], ['203', null], ['207', 'MONTANTTOTAL_ERR']]],
    [UNKNOWN_BUYER_SIREN, [['200', null], ['221', 'ROUTAGE_ERR']]],
  ])('buyer %s: the scenario’s statuses with their reasons', async (buyer, expected) => {
    const pa = connector();
    const { number } = await submit(pa, buyer);
    expect((await statusesOf(pa, number)).map((s) => [s.code, s.reasonCode])).toEqual(expected);
  });

  it('buyer 212000004: paid — 212 Encaissée reported back with the invoice’s total in cents', async () => {
    const pa = connector();
    const { number } = await submit(pa, '212000004');
    const statuses = await statusesOf(pa, number);
    expect(statuses.map((s) => s.code)).toEqual(['200', '202', '203', '205', '211', '212']);
    // The sample's BT-112, 104.90 €, as the sandbox read it from the file.
    expect(statuses.at(-1)).toEqual({ code: '212', reasonCode: null, role: 'seller_pa', amount: 10490 });
  });

  it('a file that is no invoice: acknowledgement Error, then 501 Irrecevable', async () => {
    const pa = connector();
    const file = Buffer.from('<nope/>');
    const flow = await pa.submitFlow(file, sha(file), { trackingId: 'bad', name: 'bad.xml', syntax: 'CII' });
    const got = await pa.getFlow(flow.flowId);
    expect(got.flow.ack).toMatchObject({ status: 'Error', details: [{ level: 'Error', reasonCode: 'InvalidSchema' }] });
    const [lc] = await pa.searchFlows({ flowTypes: ['CustomerInvoiceLC'] });
    expect(readCdar((await pa.getFlow(lc!.flowId)).file)[0]).toMatchObject({ code: '501', reasonCode: 'IRR_SYNTAX' });
  });

  it('searches from a cursor: updatedAfter is strict, results oldest first, limit honoured, another client sees none of them', async () => {
    const pa = connector();
    await submit(pa, '987654321');
    await submit(pa, '987654321');
    const all = await pa.searchFlows({ limit: 100 });
    expect(all.map((f) => f.updatedAt)).toEqual([...all.map((f) => f.updatedAt)].sort());
    expect(all).toHaveLength(8); // 2 invoices (Out) + 3 statuses each (In)
    const first = await pa.searchFlows({ limit: 3 });
    const rest = await pa.searchFlows({ updatedAfter: first.at(-1)!.updatedAt, limit: 100 });
    expect([...first, ...rest].map((f: PaFlow) => f.flowId)).toEqual(all.map((f) => f.flowId));
    expect(await pa.searchFlows({ directions: ['Out'] })).toHaveLength(2);
    expect(await connector('buyer', 'buyer-secret-0002').searchFlows({})).toEqual([]);
  });

  it('statuses arrive step by step when the PA takes time (stepMs): invisible before their time', async () => {
    sandbox.pa.state.options.stepMs = 400;
    try {
      const pa = connector();
      const { number } = await submit(pa, '987654321');
      expect(await statusesOf(pa, number)).toEqual([]);
      await new Promise((r) => setTimeout(r, 1300));
      expect((await statusesOf(pa, number)).map((s) => s.code)).toEqual(['200', '202', '203']);
    } finally {
      sandbox.pa.state.options.stepMs = 0;
    }
  });

  it('getFlow of an unknown or another client’s flow: PaError not_found', async () => {
    const { flow } = await submit(connector(), '987654321');
    const unknown = (await failure(connector().getFlow('no-such-flow'))) as PaError;
    expect([unknown.kind, unknown.status, unknown.retryable]).toEqual(['not_found', 404, false]);
    const foreign = (await failure(connector('buyer', 'buyer-secret-0002').getFlow(flow.flowId))) as PaError;
    expect([foreign.kind, foreign.status]).toEqual(['not_found', 404]);
  });
});

describe('AFNOR connector — failures', () => {
  it('wrong credentials: PaError auth, not retryable, the secret never in the message', async () => {
    const error = (await failure(connector('seller', 'not-the-secret').searchFlows({}))) as PaError;
    expect(error).toBeInstanceOf(PaError);
    expect([error.kind, error.status, error.retryable]).toEqual(['auth', 401, false]);
    expect(error.message).not.toContain('not-the-secret');
  });

  it('fetches a token once and again when the PA forgets it (401 on a call → one new token)', async () => {
    const pa = connector();
    await pa.searchFlows({});
    await pa.searchFlows({});
    expect((sandbox.pa.state as unknown as { tokens: Map<string, unknown> }).tokens.size).toBe(1);
    (sandbox.pa.state as unknown as { tokens: Map<string, unknown> }).tokens.clear();
    expect(await pa.searchFlows({})).toEqual([]);
    expect((sandbox.pa.state as unknown as { tokens: Map<string, unknown> }).tokens.size).toBe(1);
  });

  it('down: PaError server (503), retryable; unreachable: PaError unreachable', async () => {
    sandbox.pa.state.switches.down = true;
    const error = (await failure(connector().searchFlows({}))) as PaError;
    expect([error.kind, error.status, error.code, error.retryable]).toEqual(['server', 503, 'RESOURCE_ERROR', true]);
    const gone = new AfnorConnector({ provider: 'afnor', base_url: 'http://127.0.0.1:1', token_url: null, client_id: 'x', client_secret: 'y' });
    const unreachable = (await failure(gone.searchFlows({}))) as PaError;
    expect([unreachable.kind, unreachable.retryable]).toEqual(['unreachable', true]);
    expect(unreachable.message).toMatch(/could not connect to the PA at 127\.0\.0\.1:1$/);
  });

  it('slow: PaError timeout after the timeout, retryable', async () => {
    sandbox.pa.state.switches.slowMs = 1500;
    const started = Date.now();
    const error = (await failure(connector('seller', SANDBOX_SECRET, 300).searchFlows({}))) as PaError;
    expect([error.kind, error.retryable]).toEqual(['timeout', true]);
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('a submission whose answer is lost: the flow exists at the PA, found again by its trackingId (no second flow)', async () => {
    sandbox.pa.state.switches.dropResponses = 1;
    const pa = connector();
    const file = ciiInvoice({ number: 'LOST-1' });
    const error = (await failure(pa.submitFlow(file, sha(file), { trackingId: 'lost-1', name: 'LOST-1.xml', syntax: 'CII' }))) as PaError;
    expect(error.retryable).toBe(true);
    const found = await pa.searchFlows({ trackingId: 'lost-1', directions: ['Out'] });
    expect(found.map((f) => f.trackingId)).toEqual(['lost-1']);
  });

  it('a failing submission (500) stores nothing and is retryable', async () => {
    sandbox.pa.state.switches.failSubmissions = 1;
    const pa = connector();
    const file = ciiInvoice({ number: 'FAIL-1' });
    const error = (await failure(pa.submitFlow(file, sha(file), { trackingId: 'fail-1', name: 'FAIL-1.xml', syntax: 'CII' }))) as PaError;
    expect([error.kind, error.status, error.retryable]).toEqual(['server', 500, true]);
    expect(await pa.searchFlows({ trackingId: 'fail-1' })).toEqual([]);
    await pa.submitFlow(file, sha(file), { trackingId: 'fail-1', name: 'FAIL-1.xml', syntax: 'CII' });
    expect(await pa.searchFlows({ trackingId: 'fail-1' })).toHaveLength(1);
  });
});
