import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { einvoicingLifecycleEvents, events } from '@/db/schema';
import { hasLiveJob } from '@/lib/platform/jobs';
import { connectorForOrg } from '../connector';
import { submitTransmission } from '../transmission/submit';
import { type Seller, transmissionFixture } from '../transmission/testing';
import { readCdar } from './cdar';
import { emitEncaissee } from './encaissee';
import { emitEncaisseeJob } from './jobs';
import { pollLifecycle } from './poll';
import { appendLifecycle } from './record';

/*
 * Lifecycle statuses (issue 17 item 5) against the sandbox PA in-process, one scenario per buyer SIREN
 * (lib/domain/einvoicing/sandbox/scenarios.ts): polled into an append-only log, summarised on the document, 212 emitted once.
 */

const { sandbox, seller } = transmissionFixture();

/** An invoice to `buyerSiren`, rendered and transmitted. */
async function transmitted(org: Seller, buyerSiren: string) {
  const doc = await org.invoice(buyerSiren);
  expect(await submitTransmission(org.db, org.org.id, doc.id)).toBe('sent');
  return doc;
}
const poll = async (org: Seller) => pollLifecycle(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
const codes = async (org: Seller, id: string) => (await org.log(id)).map((e) => e.code);
const lifecycleEvents = async (org: Seller, id: string) =>
  (await org.db.select().from(events).where(and(eq(events.org_id, org.org.id), eq(events.type, 'invoice.lifecycle_updated'))))
    .map((e) => (e.payload as { object: { id: string; lifecycle_status: string } }).object)
    .filter((o) => o.id === id)
    .map((o) => o.lifecycle_status);

describe('polling the statuses the PA reports', () => {
  it('accepted then delivered: 200, 202, 203 logged once each; polling again adds nothing', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    expect(await poll(org)).toEqual({ flows: 3, recorded: 3, ignored: 0 });
    const log = await org.log(doc.id);
    expect(log.map((e) => [e.code, e.token, e.issuer_role, e.direction])).toEqual([
      ['200', 'deposee', 'seller_pa', 'received'],
      ['202', 'recue', 'buyer_pa', 'received'],
      ['203', 'mise_a_disposition', 'buyer_pa', 'received'],
    ]);
    expect(await org.document(doc.id)).toMatchObject({ lifecycle_status: 'mise_a_disposition', lifecycle_reason: null, lifecycle_at: log[2]!.occurred_at });
    expect(await lifecycleEvents(org, doc.id)).toEqual(['deposee', 'recue', 'mise_a_disposition']);
    expect(await poll(org)).toEqual({ flows: 0, recorded: 0, ignored: 0 });
    // Even from the beginning again (a lost cursor), nothing is written twice: the PA's flow is the status' identity.
    await org.db.execute(`update einvoicing_poll_cursors set updated_after = null, seen_flow_ids = '[]' where org_id = '${org.org.id}'`);
    expect(await poll(org)).toEqual({ flows: 3, recorded: 0, ignored: 0 });
    expect(await codes(org, doc.id)).toEqual(['200', '202', '203']);
  });

  it('213 Rejetée by the PA, with its reason code and text, on the document', async () => {
    const org = await seller();
    const doc = await transmitted(org, '213000003');
    await poll(org);
    const [rejected] = await org.log(doc.id);
    expect(rejected).toMatchObject({ code: '213', token: 'rejetee', reason_code: 'REJ_SEMAN', issuer_role: 'seller_pa' });
    expect(await org.document(doc.id)).toMatchObject({
      transmission_status: 'sent',
      lifecycle_status: 'rejetee',
      lifecycle_reason: 'REJ_SEMAN — Le numéro de TVA de l’acheteur ne correspond pas à son SIREN (sandbox).',
    });
    const res = await org.api.get(doc.id);
    expect(res.body).toMatchObject({ lifecycle_status: 'rejetee', lifecycle_reason: expect.stringContaining('REJ_SEMAN') });
  });

  it('210 Refusée and 207 En litige by the buyer, with their reasons', async () => {
    const org = await seller();
    const refused = await transmitted(org, '210000006');
    const disputed = await transmitted(org, '207000001');
    expect(await poll(org)).toMatchObject({ recorded: 8 });
    expect(await codes(org, refused.id)).toEqual(['200', '202', '203', '210']);
    expect(await org.document(refused.id)).toMatchObject({ lifecycle_status: 'refusee', lifecycle_reason: 'DEST_ERR — Facture adressée au mauvais destinataire (sandbox).' });
    expect((await org.log(refused.id))[3]).toMatchObject({ issuer_role: 'buyer', reason_code: 'DEST_ERR' });
    expect(await org.document(disputed.id)).toMatchObject({ lifecycle_status: 'en_litige', lifecycle_reason: expect.stringMatching(/^MONTANTTOTAL_ERR — /) });
  });

  it('a PA down stops the run with the cursor kept; up again, it resumes without loss', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    sandbox.pa.state.switches.down = true;
    try {
      await expect(poll(org)).rejects.toThrow();
    } finally {
      sandbox.pa.state.switches.down = false;
    }
    expect(await codes(org, doc.id)).toEqual([]);
    expect(await poll(org)).toMatchObject({ recorded: 3 });
  });

  it('the log is append-only: the database refuses to change or delete a status', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    await poll(org);
    const where = eq(einvoicingLifecycleEvents.document_id, doc.id);
    await expect(org.db.update(einvoicingLifecycleEvents).set({ code: '210' }).where(where)).rejects.toThrow();
    await expect(org.db.delete(einvoicingLifecycleEvents).where(where)).rejects.toThrow();
    expect(await codes(org, doc.id)).toEqual(['200', '202', '203']);
  });
});

describe('212 Encaissée, emitted by the seller once the invoice is paid in full', () => {
  it('a payment that settles a transmitted invoice queues it; sent once, with the amount and the payment day', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    org.api.expectStatus(await org.api.pay(doc.id, { amount: 40_000, paid_at: '2026-11-20', method: 'bank_transfer' }), 201, 'partial');
    expect(await hasLiveJob(org.db, emitEncaisseeJob, { org_id: org.org.id, document_id: doc.id })).toBe(false);
    org.api.expectStatus(await org.api.pay(doc.id, { amount: doc.total_ttc - 40_000, paid_at: '2026-11-24', method: 'bank_transfer' }), 201, 'balance');
    expect(await hasLiveJob(org.db, emitEncaisseeJob, { org_id: org.org.id, document_id: doc.id })).toBe(true);

    // Statuses reported before (delivered): the 212 sent after them is the invoice's latest.
    await poll(org);
    expect(await emitEncaissee(org.db, org.org.id, doc.id)).toBe('sent');
    expect(await emitEncaissee(org.db, org.org.id, doc.id)).toBe('skipped');
    const cdars = sandbox.pa.state.flows.filter((f) => f.tenant === `org-${org.org.id}` && f.syntax === 'CDAR' && f.trackingId === `212-${doc.id}`);
    expect(cdars).toHaveLength(1);
    const [status] = readCdar(cdars[0]!.file);
    expect(status).toMatchObject({ code: '212', issuerRole: 'seller', invoice: { number: doc.number, sellerSiren: '732829320', typeCode: '380' }, amount: { cents: doc.total_ttc, currency: 'EUR', vatRate: '20.00' } });
    expect(status!.issuedAt.slice(0, 10)).toBe('2026-11-24');
    const sent = (await org.log(doc.id)).filter((e) => e.direction === 'sent');
    expect(sent).toEqual([expect.objectContaining({ code: '212', token: 'encaissee', issuer_role: 'seller', amount_cents: doc.total_ttc, flow_id: cdars[0]!.flowId })]);
    expect((await org.document(doc.id)).lifecycle_status).toBe('encaissee');
  });

  it('a run that died after the upload: the next finds the CDAR by its tracking id, records it, sends nothing more', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    org.api.expectStatus(await org.api.pay(doc.id, { amount: doc.total_ttc, paid_at: '2026-11-24', method: 'bank_transfer' }), 201, 'pay');
    sandbox.pa.state.switches.dropResponses = 1;
    await expect(emitEncaissee(org.db, org.org.id, doc.id)).rejects.toThrow();
    expect((await org.log(doc.id)).filter((e) => e.direction === 'sent')).toHaveLength(0);
    expect(await emitEncaissee(org.db, org.org.id, doc.id)).toBe('sent');
    expect(sandbox.pa.state.flows.filter((f) => f.trackingId === `212-${doc.id}`)).toHaveLength(1);
  });

  it('the paid scenario: the PA also reports 212 back; an invoice paid before it was sent emits once it is', async () => {
    const org = await seller();
    const doc = await org.invoice('212000004');
    org.api.expectStatus(await org.api.pay(doc.id, { amount: doc.total_ttc, paid_at: '2026-11-24', method: 'card' }), 201, 'pay');
    // Not transmitted yet: nothing to emit now…
    expect(await hasLiveJob(org.db, emitEncaisseeJob, { org_id: org.org.id, document_id: doc.id })).toBe(false);
    expect(await emitEncaissee(org.db, org.org.id, doc.id)).toBe('skipped');
    // …its transmission queues it.
    expect(await submitTransmission(org.db, org.org.id, doc.id)).toBe('sent');
    expect(await hasLiveJob(org.db, emitEncaisseeJob, { org_id: org.org.id, document_id: doc.id })).toBe(true);
    await poll(org);
    expect(await codes(org, doc.id)).toEqual(['200', '202', '203', '205', '211', '212']);
    expect((await org.log(doc.id)).at(-1)).toMatchObject({ code: '212', issuer_role: 'seller_pa', amount_cents: doc.total_ttc });
    expect(await emitEncaissee(org.db, org.org.id, doc.id)).toBe('sent');
    // Both kept, each with its issuer, in the order they were issued.
    expect((await org.log(doc.id)).filter((e) => e.code === '212').map((e) => [e.direction, e.issuer_role])).toEqual([
      ['received', 'seller_pa'],
      ['sent', 'seller'],
    ]);
    expect((await org.document(doc.id)).lifecycle_status).toBe('encaissee');
  });
});

describe('lifecycle_reason', () => {
  it('is the reason of a negative status only: a positive status’s comment stays in the log', async () => {
    const org = await seller();
    const doc = await transmitted(org, '552032534');
    const at = (s: number) => new Date(Date.now() + s * 1000);
    const entry = { direction: 'received' as const, flowId: null, issuerRole: 'buyer' as const };
    await org.db.transaction((tx) =>
      appendLifecycle(tx, org.org.id, doc.id, { ...entry, paEventId: 'test:205', code: '205', reasonCode: null, reason: 'Bon pour paiement', occurredAt: at(1) }),
    );
    expect(await org.document(doc.id)).toMatchObject({ lifecycle_status: 'approuvee', lifecycle_reason: null });
    expect((await org.log(doc.id)).find((e) => e.code === '205')).toMatchObject({ reason: 'Bon pour paiement' });
    await org.db.transaction((tx) =>
      appendLifecycle(tx, org.org.id, doc.id, { ...entry, paEventId: 'test:210', code: '210', reasonCode: 'DEST_ERR', reason: 'Mauvais destinataire', occurredAt: at(2) }),
    );
    expect(await org.document(doc.id)).toMatchObject({ lifecycle_status: 'refusee', lifecycle_reason: 'DEST_ERR — Mauvais destinataire' });
  });
});
