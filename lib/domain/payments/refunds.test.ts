import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { balanceSql } from '@/lib/domain/documents';
import { billingContext, documentRow, eventsOf, line, routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { refundableAmount } from './refunds';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
});

/** The balance of balance.ts (statistics, reminders): negative when the client is owed money. */
async function balance(id: string) {
  const [row] = await org.db
    .select({ balance: sql<string>`${balanceSql(sql`${documents}`)}` })
    .from(documents)
    .where(eq(documents.id, id));
  return Number(row!.balance);
}
const account = async (contactId: string) =>
  (await call(routes.clientSummary, 'GET', '/v1/invoices/client-summary', { token: api.token, query: { contact_id: contactId } })).body;

/** An invoice of 120.00 TTC (100.00 HT at 20 %) for a new client. */
async function invoice() {
  const client = await api.contact({ company: `Client ${Math.random().toString(36).slice(2, 8)}` });
  const inv = await api.issued({ type: 'facture', contact_id: client.id, items: [line('Prestation', '1', 10_000)] });
  return { inv, client };
}
/** Its finalized partial credit note of `ht` cents HT at 20 %. */
async function creditNote(invoiceId: string, ht: number) {
  const draft = api.expectStatus(await api.creditNote(invoiceId, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', ht)] }), 201, 'credit');
  return api.expectStatus(await api.finalize(draft.id), 200, 'finalize credit');
}

describe('POST /v1/invoices/{id}/refunds after a credit note', () => {
  it('pays back the credit note of a paid invoice: the invoice stays paid, the books and the client’s account balance to 0', async () => {
    const { inv, client } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 12_000 }), 201, 'pay');
    const credit = await creditNote(inv.id, 2_000); // 24.00 TTC
    expect(await balance(inv.id)).toBe(-2_400);
    expect(await refundableAmount(org.db, org.org.id, inv.id)).toBe(2_400);
    expect((await account(client.id)).paid.amount).toBe(12_000);

    const res = await api.refund(inv.id, { amount: 2_400, paid_at: todayParis(), method: 'bank_transfer', reference: 'VIR REMB 1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      payment: {
        id: expect.any(String),
        document_id: credit.id,
        amount: -2_400,
        paid_at: todayParis(),
        method: 'bank_transfer',
        reference: 'VIR REMB 1',
        created_at: expect.stringMatching(/Z$/),
      },
      total_paid: 12_000,
      remaining_due: 0,
      status: 'paid',
    });
    // The invoice stays paid, the credit note keeps its status; the refund is listed on the credit note.
    expect((await documentRow(org.db, inv.id))!.status).toBe('paid');
    expect((await documentRow(org.db, credit.id))!.status).toBe(credit.status);
    expect((await api.payments(credit.id)).body.data).toEqual([res.body.payment]);
    expect((await eventsOf(org, 'payment.refunded')).at(-1)?.payload).toEqual({ object: res.body.payment });

    // Invoiced 120 − credited 24 = 96, received 120 − 24 = 96: nothing owed either way.
    expect(await balance(inv.id)).toBe(0);
    const summary = await account(client.id);
    expect(summary.invoiced.total_ttc - summary.credited.total_ttc).toBe(9_600);
    expect(summary.paid.amount).toBe(9_600);
    expect(summary.outstanding).toEqual({ count: 0, amount: 0 });

    // Nothing left to refund.
    const again = await api.refund(inv.id, { amount: 1 });
    expect([again.status, again.body.code]).toEqual([409, 'not_refundable']);

    // A refund is deleted like a payment, on its document: the client is owed the credit note again.
    const removed = await api.unpay(credit.id, res.body.payment.id);
    expect(removed.status).toBe(200);
    expect((await eventsOf(org, 'payment.deleted')).at(-1)?.payload).toEqual({ object: res.body.payment });
    expect(removed.body).toMatchObject({ payment: null, total_paid: 0, status: credit.status });
    expect((await documentRow(org.db, credit.id))!.status).toBe(credit.status);
    expect(await balance(inv.id)).toBe(-2_400);
  });

  it('on an invoice partly paid, refunds only what the credit note leaves over; the invoice keeps its status and leaves the outstanding', async () => {
    const { inv, client } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 5_000 }), 201, 'pay');
    await creditNote(inv.id, 9_000); // 108.00 TTC: 120 − 50 − 108 = −38 owed to the client
    expect(await balance(inv.id)).toBe(-3_800);

    const tooMuch = await api.refund(inv.id, { amount: 3_801 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toEqual({ code: 'validation_error', message: 'amount: at most 3800 cents can be refunded, what the client is owed', field: 'amount' });

    const res = await api.refund(inv.id, { amount: 3_800, method: 'cheque' });
    expect(res.body).toMatchObject({ total_paid: 5_000, remaining_due: 7_000, status: 'sent', payment: { amount: -3_800, method: 'cheque', paid_at: todayParis(), reference: null } });
    expect(await balance(inv.id)).toBe(0);
    expect((await account(client.id)).outstanding).toEqual({ count: 0, amount: 0 });
  });

  it('pays back what was paid on a cancelled invoice through its full credit note; the invoice stays cancelled', async () => {
    const { inv } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 5_000 }), 201, 'pay');
    api.expectStatus(await api.cancel(inv.id), 200, 'cancel');
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, inv.id));
    expect(await balance(inv.id)).toBe(-5_000);
    const res = await api.refund(inv.id, { amount: 5_000 });
    expect(res.body).toMatchObject({ status: 'cancelled', total_paid: 5_000, payment: { document_id: credit!.id, amount: -5_000 } });
    expect(await balance(inv.id)).toBe(0);
  });
});

describe('POST /v1/invoices/{id}/refunds of an overpayment', () => {
  it('goes on the invoice itself: remaining_due back to 0, still paid, no status event', async () => {
    const { inv } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 15_000 }), 201, 'overpay');
    const paidEvents = (await eventsOf(org, 'invoice.')).length;

    expect((await api.refund(inv.id, { amount: 3_001 })).body).toMatchObject({ code: 'validation_error', field: 'amount' });
    const res = await api.refund(inv.id, { amount: 3_000, method: 'card' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ total_paid: 12_000, remaining_due: 0, status: 'paid', payment: { document_id: inv.id, amount: -3_000 } });
    expect((await eventsOf(org, 'invoice.')).length).toBe(paidEvents);
    expect((await api.payments(inv.id)).body.data.map((p: { amount: number }) => p.amount)).toEqual([-3_000, 15_000]);
  });
});

describe('POST /v1/invoices/{id}/refunds refusals', () => {
  it('409 not_refundable when nothing is owed: unpaid, paid exactly, a draft, a quote, a credit note', async () => {
    const unpaid = (await invoice()).inv;
    const paid = (await invoice()).inv;
    api.expectStatus(await api.pay(paid.id, { amount: 12_000 }), 201, 'pay');
    const client = await api.contact();
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('A', '1', 100)] });
    const credited = (await invoice()).inv;
    const credit = await creditNote(credited.id, 1_000);
    const refunded = (await eventsOf(org, 'payment.refunded')).length;
    for (const id of [unpaid.id, paid.id, draft.id, quote.id, credit.id]) {
      const res = await api.refund(id, { amount: 100 });
      expect([res.status, res.body.code], id).toEqual([409, 'not_refundable']);
    }
    expect(await eventsOf(org, 'payment.refunded')).toHaveLength(refunded);
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{}, 'amount'],
    [{ amount: 100, paid_at: addDays(todayParis(), 1) }, 'paid_at'],
    [{ amount: 100, paid_at: '2026-02-30' }, 'paid_at'],
    [{ amount: 100, method: 'bitcoin' }, 'method'],
    [{ amount: 100, extra: true }, 'extra'],
  ])('refuses %j with 422 on %s, recording nothing', async (body, field) => {
    const { inv } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 15_000 }), 201, 'overpay');
    const res = await api.refund(inv.id, body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
    expect(await balance(inv.id)).toBe(-3_000);
  });

  it("answers 404 for another org's invoice and records nothing there", async () => {
    const { inv } = await invoice();
    api.expectStatus(await api.pay(inv.id, { amount: 15_000 }), 201, 'overpay');
    const stranger = await createTestOrg();
    const res = await call(routes.recordRefund, 'POST', `/v1/invoices/${inv.id}/refunds`, { token: await stranger.key(), params: { id: inv.id }, body: { amount: 100 } });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    expect(await balance(inv.id)).toBe(-3_000);
  });
});
