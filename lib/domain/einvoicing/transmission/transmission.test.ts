import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { einvoicingTransmissions } from '@/db/schema';
import { hasLiveJob } from '@/lib/platform/jobs';
import { connectorForOrg } from '../connector';
import { UNKNOWN_BUYER_SIREN } from '../testing';
import { openTransmissionJob, submitTransmissionJob } from './jobs';
import { RetryLater, submitTransmission } from './submit';
import { frenchBusinessBuyer, openTransmission } from './state';
import { retry, type Seller, siretOf, transmissionFixture } from './testing';

/*
 * Transmission of issued invoices to the PA (issue 17 item 4), against the sandbox PA in-process: pending at
 * finalization, submitted once the Factur-X is stored, one flow per document whatever happens. Since issue 32 the
 * finalization writes the opening job (its subscription to invoice.finalized) and the render writes the submission
 * (its subscription to pdf.document_rendered); the tests run the jobs' work where the worker would.
 */

const { sandbox, seller } = transmissionFixture();

const submit = (org: Seller, id: string, options: Parameters<typeof submitTransmission>[3] = {}) => submitTransmission(org.db, org.org.id, id, options);
const outcome = (p: Promise<unknown>) =>
  p.then(
    (v) => v,
    (e: unknown) => e,
  );

describe('finalization decides: pending (with its job, in the same transaction) or not_required', () => {
  it('an invoice, a deposit and a credit note to a French business are pending; the finalize answer says so', async () => {
    const org = await seller();
    const invoice = await org.issue();
    expect(invoice.transmission_status).toBe('pending');
    expect((await org.document(invoice.id)).transmission_status).toBe('pending');
    // Its job, in the finalization's transaction: einvoicing opens the transmission (its row, and the event).
    const key = { org_id: org.org.id, document_id: invoice.id };
    expect(await hasLiveJob(org.db, openTransmissionJob, key)).toBe(true);
    await openTransmission(org.db, org.org.id, invoice.id);
    expect(await org.transmissionEvents(invoice.id)).toEqual(['pending']);
    expect((await org.document(invoice.id)).transmission_status).toBe('pending');
    // The submission's job, in the transaction that stores the Factur-X.
    expect(await hasLiveJob(org.db, submitTransmissionJob, key)).toBe(false);
    const { renderStoredDocument } = await import('@/lib/domain/pdf');
    expect(await renderStoredDocument(org.db, org.org.id, invoice.id)).toBe('ready');
    expect(await hasLiveJob(org.db, submitTransmissionJob, key)).toBe(true);

    const quote = await org.api.draft({ type: 'devis', contact_id: (await org.api.contact()).id, items: [{ description: 'Étude', quantity: '1', unit_price: 100_000, vat_rate: '20' }] });
    await org.api.expectStatus(await org.api.finalize(quote.id), 200, 'finalize quote');
    await org.api.expectStatus(await org.api.accept(quote.id), 200, 'accept');
    const deposit = org.api.expectStatus(await org.api.deposit(quote.id, { percentage: '30' }), 201, 'deposit');
    const depositIssued = org.api.expectStatus(await org.api.finalize(deposit.id), 200, 'finalize deposit');
    expect(depositIssued.transmission_status).toBe('pending');
    const credit = org.api.expectStatus(await org.api.creditNote(invoice.id, { credit_reason_code: 'billing_error' }), 201, 'credit note');
    const creditIssued = org.api.expectStatus(await org.api.finalize(credit.id), 200, 'finalize credit note');
    expect(creditIssued.transmission_status).toBe('pending');
    expect((await org.document(quote.id)).transmission_status).toBe('not_required');
  });

  it('not_required: a quote (above), a foreign company, a buyer with no SIREN/SIRET, an org that has not opted in', async () => {
    const org = await seller();
    // A foreign company: not a French business, whatever identifiers it has (its invoice goes by e-reporting instead).
    expect(frenchBusinessBuyer({ type: 'professionnel', siren: '552032534', siret: null, country: 'DE' })).toBeNull();
    expect(frenchBusinessBuyer({ type: 'particulier', siren: '552032534', siret: null, country: 'FR' })).toBeNull();
    expect(frenchBusinessBuyer({ type: 'professionnel', siren: null, siret: '55203253400646', country: 'FR' })).toEqual({ siren: '552032534', siret: '55203253400646' });
    const individual = await org.issue({ type: 'particulier', siret: null, company: null, first_name: 'Jeanne', last_name: 'Martin' });
    expect(individual.transmission_status).toBe('not_required');
    const optedOut = await seller({ einvoicing: false });
    const invoice = await optedOut.issue();
    expect(invoice.transmission_status).toBe('not_required');
    const { renderStoredDocument } = await import('@/lib/domain/pdf');
    for (const [owner, id] of [
      [org, individual.id],
      [optedOut, invoice.id],
    ] as const) {
      expect(await owner.transmissionEvents(id)).toEqual([]);
      expect(await hasLiveJob(owner.db, openTransmissionJob, { org_id: owner.org.id, document_id: id })).toBe(false);
      expect(await renderStoredDocument(owner.db, owner.org.id, id)).toBe('ready');
      expect(await hasLiveJob(owner.db, submitTransmissionJob, { org_id: owner.org.id, document_id: id })).toBe(false);
    }
  });
});

describe('submission', () => {
  it('waits for the stored Factur-X, then pending → sending → sent with the PA flow id and the file’s SHA-256', async () => {
    const org = await seller();
    const doc = await org.issue();
    expect(await outcome(submit(org, doc.id))).toBeInstanceOf(RetryLater);
    expect(org.flows()).toHaveLength(0);
    const { renderStoredDocument } = await import('@/lib/domain/pdf');
    await renderStoredDocument(org.db, org.org.id, doc.id);
    expect(await submit(org, doc.id)).toBe('sent');
    const [flow] = org.flows();
    const row = await org.document(doc.id);
    expect(row).toMatchObject({ transmission_status: 'sent', transmission_id: flow!.flowId });
    const tx = await org.transmission(doc.id);
    expect(tx).toMatchObject({ status: 'sent', flow_id: flow!.flowId, file_sha256: flow!.sha256, tracking_id: flow!.trackingId, buyer_address: '0225:552032534', attempts: 1 });
    expect(flow).toMatchObject({ syntax: 'Factur-X', processingRule: 'B2B', flowType: 'CustomerInvoice' });
    expect(await org.transmissionEvents(doc.id)).toEqual(['pending', 'sending', 'sent']);
    // Done: a second run changes nothing.
    expect(await submit(org, doc.id)).toBe('skipped');
    expect(org.flows()).toHaveLength(1);
  });

  it('an unknown buyer fails at once with a clear reason, nothing sent', async () => {
    const org = await seller();
    const doc = await org.invoice(UNKNOWN_BUYER_SIREN);
    expect(await submit(org, doc.id)).toBe('failed');
    expect((await org.document(doc.id)).transmission_status).toBe('failed');
    expect((await org.transmission(doc.id))?.last_error).toBe(
      `Client inconnu de l’annuaire : SIREN ${UNKNOWN_BUYER_SIREN} (SIRET ${siretOf(UNKNOWN_BUYER_SIREN)}) n’y figure pas, aucune plateforme agréée ne reçoit ses factures.`,
    );
    expect(org.flows()).toHaveLength(0);
  });

  it('a PA down: retried with the reason kept, failed on the last attempt; up again, the retry sends it once', async () => {
    const org = await seller();
    const doc = await org.invoice();
    sandbox.pa.state.switches.down = true;
    try {
      const first = await outcome(submit(org, doc.id));
      expect(first).toBeInstanceOf(RetryLater);
      expect((await org.document(doc.id)).transmission_status).toBe('pending');
      expect((await org.transmission(doc.id))).toBeUndefined();
      expect(await submit(org, doc.id, { lastAttempt: true })).toBe('failed');
      expect((await org.transmission(doc.id))?.last_error).toMatch(/503|down|unavailable/i);
    } finally {
      sandbox.pa.state.switches.down = false;
    }
    const res = await retry(org, doc.id);
    expect(res.status).toBe(200);
    expect(res.body.transmission_status).toBe('pending');
    expect(await submit(org, doc.id)).toBe('sent');
    expect(org.flows()).toHaveLength(1);
    expect((await org.transmission(doc.id))?.last_error).toBeNull();
  });

  it('a PA down after the intent was recorded (failing submissions): sending, retried, then one flow', async () => {
    const org = await seller();
    const doc = await org.invoice();
    sandbox.pa.state.switches.failSubmissions = 2;
    expect(await outcome(submit(org, doc.id))).toBeInstanceOf(RetryLater);
    expect(await outcome(submit(org, doc.id))).toBeInstanceOf(RetryLater);
    expect(await org.transmission(doc.id)).toMatchObject({ status: 'sending', attempts: 2, last_error: expect.stringMatching(/500|failed/i) });
    expect(await submit(org, doc.id)).toBe('sent');
    expect(org.flows()).toHaveLength(1);
    expect(await org.transmissionEvents(doc.id)).toEqual(['pending', 'sending', 'sent']);
  });

  it('a slow PA times out (retried); the flow it stored meanwhile is found by its tracking id, not sent again', async () => {
    const org = await seller();
    const doc = await org.invoice();
    const hasty = await connectorForOrg(org.db, org.org.id, { timeoutMs: 300 });
    // The token first (not slow), then every call takes 800 ms: the upload is stored but its answer comes too late.
    await hasty.lookup({ siren: '552032534' });
    sandbox.pa.state.switches.slowMs = 800;
    try {
      expect(await outcome(submit(org, doc.id, { connector: hasty }))).toBeInstanceOf(RetryLater);
    } finally {
      sandbox.pa.state.switches.slowMs = 0;
    }
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await submit(org, doc.id)).toBe('sent');
    expect(org.flows().length).toBeLessThanOrEqual(1);
    expect((await org.document(doc.id)).transmission_id).toBe(org.flows()[0]!.flowId);
  });
});

describe('one flow per document, whatever happens', () => {
  it('a worker killed mid-submission (the PA stored the flow, the answer never came): the rerun finds it', async () => {
    const org = await seller();
    const doc = await org.invoice();
    sandbox.pa.state.switches.dropResponses = 1;
    expect(await outcome(submit(org, doc.id))).toBeInstanceOf(RetryLater);
    expect(org.flows()).toHaveLength(1);
    // The job's retry, once the dead attempt's lease has run out (here the lease was released by the error path;
    // a killed worker's would expire): it searches the PA by tracking id before submitting.
    await org.db.update(einvoicingTransmissions).set({ locked_until: new Date(Date.now() - 1) }).where(eq(einvoicingTransmissions.document_id, doc.id));
    expect(await submit(org, doc.id)).toBe('sent');
    expect(org.flows()).toHaveLength(1);
    expect((await org.document(doc.id)).transmission_id).toBe(org.flows()[0]!.flowId);
  });

  it('a worker killed with the lease held: the next attempt waits for the lease, then sends once', async () => {
    const org = await seller();
    const doc = await org.invoice();
    const lease = new Date(Date.now() + 60_000);
    await org.db.insert(einvoicingTransmissions).values({
      org_id: org.org.id,
      document_id: doc.id,
      file_sha256: '0'.repeat(64),
      tracking_id: `dead-${doc.id}`,
      status: 'sending',
      attempts: 1,
      locked_until: lease,
    });
    expect(await outcome(submit(org, doc.id))).toBeInstanceOf(RetryLater);
    expect(org.flows()).toHaveLength(0);
    await org.db.update(einvoicingTransmissions).set({ locked_until: new Date(Date.now() - 1) }).where(eq(einvoicingTransmissions.document_id, doc.id));
    expect(await submit(org, doc.id)).toBe('sent');
    expect(org.flows()).toHaveLength(1);
    expect(org.flows()[0]!.trackingId).toBe(`dead-${doc.id}`);
  });

  it('the job run twice at once: one flow', async () => {
    const org = await seller();
    const doc = await org.invoice();
    const results = await Promise.all([outcome(submit(org, doc.id)), outcome(submit(org, doc.id))]);
    expect(results.filter((r) => r === 'sent')).toHaveLength(1);
    for (const r of results) if (r !== 'sent') expect(r === 'skipped' || r instanceof RetryLater).toBe(true);
    expect(await submit(org, doc.id)).toBe(results.includes('sent') ? 'skipped' : 'sent');
    expect(org.flows()).toHaveLength(1);
    const rows = await org.db.select().from(einvoicingTransmissions).where(and(eq(einvoicingTransmissions.org_id, org.org.id), eq(einvoicingTransmissions.document_id, doc.id)));
    expect(rows).toHaveLength(1);
  });
});
