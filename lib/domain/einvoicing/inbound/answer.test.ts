import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { einvoicingLifecycleEvents, inboundInvoices } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { connectorForOrg } from '../connector';
import { readCdar } from '../lifecycle/cdar';
import { ciiInvoice } from '../testing';
import { fetchInbound } from './fetch';
import { inboundRoutes as routes, type Receiver, inboxFixture } from './testing';

const { sandbox, receiver } = inboxFixture();
let org: Receiver;
let other: TestOrg;
let token: string;

beforeAll(async () => {
  org = await receiver();
  other = await createTestOrg();
  token = await org.key(['invoice:read', 'invoice:write']);
});

/** A received invoice fetched from the sandbox; its id. */
async function received(number: string): Promise<string> {
  const flowId = org.inject(ciiInvoice({ number, sellerSiren: '552032534' }), 'CII');
  await fetchInbound(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
  const [row] = await org.db.select().from(inboundInvoices).where(and(eq(inboundInvoices.org_id, org.org.id), eq(inboundInvoices.flow_id, flowId)));
  return row!.id;
}

type Verb = 'accept' | 'refuse' | 'dispute';
const answer = (verb: Verb, id: string, body?: unknown, as = token) => call(routes[verb], 'POST', `/v1/invoices/inbound/${id}/${verb}`, { token: as, params: { id }, body });
/** The CDAR flows the org sent to the sandbox, read back. */
const cdarsAt = (trackingPrefix: string) =>
  sandbox.pa.state.flows.filter((f) => f.syntax === 'CDAR' && f.direction === 'Out' && f.trackingId?.startsWith(trackingPrefix)).map((f) => ({ flow: f, status: readCdar(f.file)[0]! }));
const logOf = (id: string) => org.db.select().from(einvoicingLifecycleEvents).where(eq(einvoicingLifecycleEvents.inbound_invoice_id, id));

describe('accepting, refusing, disputing a received invoice', () => {
  it('accept sends 205 Approuvée to the PA as a CDAR of the buyer, recorded in the log and on the invoice; again: the same answer, nothing sent', async () => {
    const id = await received('ANS-1');
    const res = await answer('accept', id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inbound_invoice_id: id, code: '205', lifecycle_status: 'approuvee', reason_code: null, reason: null });
    const sent = cdarsAt(`inbound-${id}`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.flow.flowId).toBe(res.body.cdar_flow_id);
    expect(sent[0]!.status).toMatchObject({ code: '205', issuerRole: 'buyer', invoice: { number: 'ANS-1', sellerSiren: '552032534' } });
    expect(await logOf(id)).toMatchObject([{ direction: 'sent', code: '205', token: 'approuvee', issuer_role: 'buyer', flow_id: res.body.cdar_flow_id }]);
    const [row] = await org.db.select().from(inboundInvoices).where(eq(inboundInvoices.id, id));
    expect(row).toMatchObject({ lifecycle_status: 'approuvee', lifecycle_reason: null });

    const again = await answer('accept', id);
    expect([again.status, again.body]).toEqual([200, res.body]);
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(1);
    expect(await logOf(id)).toHaveLength(1);

    const late = await answer('refuse', id, { reason_code: 'DOUBLON' });
    expect([late.status, late.body.code]).toEqual([409, 'inbound_already_answered']);
  });

  it('dispute (207 with its reason) may still end in a refusal (210 with its reason code)', async () => {
    const id = await received('ANS-2');
    const disputed = await answer('dispute', id, { reason: 'Quantité livrée : 8, facturée : 10.' });
    expect(disputed.body).toMatchObject({ code: '207', lifecycle_status: 'en_litige', reason: 'Quantité livrée : 8, facturée : 10.' });
    const refused = await answer('refuse', id, { reason_code: 'MONTANTTOTAL_ERR', reason: 'Montant erroné' });
    expect(refused.body).toMatchObject({ code: '210', lifecycle_status: 'refusee', reason_code: 'MONTANTTOTAL_ERR', reason: 'Montant erroné' });
    const statuses = cdarsAt(`inbound-${id}`).map((c) => c.status);
    expect(statuses).toMatchObject([
      { code: '207', reason: 'Quantité livrée : 8, facturée : 10.' },
      { code: '210', reasonCode: 'MONTANTTOTAL_ERR', reason: 'Montant erroné' },
    ]);
    const [row] = await org.db.select().from(inboundInvoices).where(eq(inboundInvoices.id, id));
    expect(row).toMatchObject({ lifecycle_status: 'refusee', lifecycle_reason: 'Montant erroné' });
    expect((await answer('accept', id)).status).toBe(409);
  });

  it('422 without what the status needs: a refusal’s reason code of the closed list, a dispute’s reason', async () => {
    const id = await received('ANS-3');
    const cases: Array<[Verb, unknown, string]> = [
      ['refuse', {}, 'reason_code'],
      ['refuse', { reason_code: 'PAS_CONTENT' }, 'reason_code'],
      ['dispute', {}, 'reason'],
      ['dispute', { reason: '   ' }, 'reason'],
      ['accept', { extra: 1 }, 'extra'],
    ];
    for (const [verb, body, field] of cases) {
      const res = await answer(verb, id, body);
      expect([res.status, res.body.code, res.body.field], `${verb} ${JSON.stringify(body)}`).toEqual([422, 'validation_error', field]);
    }
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(0);
  });

  it('a PA that is down: 503 pa_unavailable and nothing recorded; once up, the answer goes', async () => {
    const id = await received('ANS-4');
    sandbox.pa.state.switches.down = true;
    try {
      const res = await answer('accept', id);
      expect([res.status, res.body.code]).toEqual([503, 'pa_unavailable']);
    } finally {
      sandbox.pa.state.switches.down = false;
    }
    expect(await logOf(id)).toHaveLength(0);
    expect((await answer('accept', id)).status).toBe(200);
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(1);
  });

  it('a request cut after the PA took the CDAR: the retry finds that flow, never sends a second', async () => {
    const id = await received('ANS-5');
    sandbox.pa.state.switches.dropResponses = 1;
    const cut = await answer('dispute', id, { reason: 'Prix unitaire non conforme au contrat.' });
    expect(cut.status).toBe(503);
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(1);
    expect(await logOf(id)).toHaveLength(0);
    const retried = await answer('dispute', id, { reason: 'Prix unitaire non conforme au contrat.' });
    expect(retried.status).toBe(200);
    expect(retried.body.cdar_flow_id).toBe(cdarsAt(`inbound-${id}`)[0]!.flow.flowId);
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(1);
  });

  it('401 without a key, 403 with invoice:read only, 404 for another org’s invoice', async () => {
    const id = await received('ANS-6');
    for (const verb of ['accept', 'refuse', 'dispute'] as const) {
      const body = verb === 'refuse' ? { reason_code: 'DOUBLON' } : verb === 'dispute' ? { reason: 'x' } : {};
      expect((await call(routes[verb], 'POST', `/v1/invoices/inbound/${id}/${verb}`, { params: { id }, body })).status, verb).toBe(401);
      const readOnly = await answer(verb, id, body, await org.key(['invoice:read']));
      expect([readOnly.status, readOnly.body.code], verb).toEqual([403, 'forbidden']);
      const cross = await answer(verb, id, body, await other.key());
      expect([cross.status, cross.body.code], verb).toEqual([404, 'not_found']);
    }
    expect(cdarsAt(`inbound-${id}`)).toHaveLength(0);
  });
});
