import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, eventsOf, line } from '@/lib/domain/documents/testing';
import { recentPaymentsOfContact } from './payments';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  client = await api.contact();
});

const invoice = () => api.issued({ type: 'facture', contact_id: client.id, items: [line('A', '1', 10000)] }); // 120.00 TTC

describe('POST /v1/invoices/{id}/payments', () => {
  it('answers the payment-balance result and recomputes the status: sent, then paid, then overpaid', async () => {
    const inv = await invoice();
    const first = await api.pay(inv.id, { amount: 5000, paid_at: '2026-03-02', method: 'cheque', reference: 'CHQ 1' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      payment: {
        id: expect.any(String),
        document_id: inv.id,
        amount: 5000,
        paid_at: '2026-03-02',
        method: 'cheque',
        reference: 'CHQ 1',
        created_at: expect.stringMatching(/Z$/),
      },
      total_paid: 5000,
      remaining_due: 7000,
      status: 'sent',
    });
    expect((await api.get(inv.id)).body.status).toBe('sent');

    const second = await api.pay(inv.id, { amount: 7000 });
    expect(second.body).toMatchObject({ total_paid: 12000, remaining_due: 0, status: 'paid', payment: { method: 'bank_transfer', paid_at: todayParis(), reference: null } });
    expect((await eventsOf(org, 'invoice.paid')).at(-1)?.payload).toMatchObject({ object: { id: inv.id, status: 'paid' } });

    const third = await api.pay(inv.id, { amount: 500 });
    expect(third.body).toMatchObject({ total_paid: 12500, remaining_due: -500, status: 'paid' });
    expect((await eventsOf(org, 'payment.recorded')).at(-1)?.payload).toEqual({ object: third.body.payment });
  });

  it('refuses drafts, quotes, credit notes and cancelled documents (409 not_payable)', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('A', '1', 100)] });
    const cancelled = await invoice();
    await api.cancel(cancelled.id);
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, cancelled.id));
    for (const id of [draft.id, quote.id, cancelled.id, credit!.id]) {
      const res = await api.pay(id, { amount: 100 });
      expect([res.status, res.body.code]).toEqual([409, 'not_payable']);
    }
  });

  it('takes payments on a deposit invoice', async () => {
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('A', '1', 10000)] });
    const dep = (await api.deposit(quote.id, { percentage: '50' })).body;
    await api.finalize(dep.id);
    expect((await api.pay(dep.id, { amount: 6000 })).body).toMatchObject({ status: 'paid', remaining_due: 0 });
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{}, 'amount'],
    [{ amount: 100, paid_at: addDays(todayParis(), 1) }, 'paid_at'],
    [{ amount: 100, paid_at: '2026-13-01' }, 'paid_at'],
    [{ amount: 100, method: 'bitcoin' }, 'method'],
    [{ amount: 100, extra: true }, 'extra'],
  ])('refuses %j with 422 on %s', async (body, field) => {
    const inv = await invoice();
    const res = await api.pay(inv.id, body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
  });
});

describe('DELETE /v1/invoices/{id}/payments/{payment_id} and GET …/payments', () => {
  it('removes a payment, recomputes paid → sent, and lists the rest newest first', async () => {
    const inv = await invoice();
    const a = (await api.pay(inv.id, { amount: 2000 })).body.payment;
    const b = (await api.pay(inv.id, { amount: 10000 })).body.payment;
    expect((await api.get(inv.id)).body.status).toBe('paid');

    const res = await api.unpay(inv.id, b.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payment: null, total_paid: 2000, remaining_due: 10000, status: 'sent' });
    expect((await eventsOf(org, 'payment.deleted')).at(-1)?.payload).toEqual({ object: b });
    expect((await api.payments(inv.id)).body).toEqual({ data: [a], meta: { next_cursor: null } });

    expect((await api.unpay(inv.id, b.id)).status).toBe(404);
    const other = await invoice();
    expect((await api.unpay(other.id, a.id)).status).toBe(404); // a payment of another document
    expect((await api.unpay(inv.id, a.id)).body).toMatchObject({ total_paid: 0, remaining_due: 12000, status: 'sent' });
  });

  it('keeps a cancelled document cancelled when one of its payments is deleted', async () => {
    const inv = await invoice();
    const p = (await api.pay(inv.id, { amount: 100 })).body.payment;
    await api.cancel(inv.id);
    expect((await api.unpay(inv.id, p.id)).body).toMatchObject({ status: 'cancelled', total_paid: 0 });
  });
});

describe('recentPaymentsOfContact (the client page)', () => {
  it('lists a client’s latest payments, newest first, with the document paid; nothing of another client or org', async () => {
    const mine = await api.contact({ company: 'Client Récent SARL' });
    const other = await api.contact({ company: 'Autre Client SARL' });
    const invoiceOf = (contactId: string) => api.issued({ type: 'facture', contact_id: contactId, items: [line('B', '1', 10000)] });
    const first = await invoiceOf(mine.id);
    const second = await invoiceOf(mine.id);
    await api.pay(first.id, { amount: 1000, paid_at: '2026-02-01', method: 'cheque' });
    await api.pay(second.id, { amount: 2000, paid_at: '2026-02-03', method: 'bank_transfer' });
    const elsewhere = await invoiceOf(other.id);
    await api.pay(elsewhere.id, { amount: 3000, paid_at: '2026-02-04', method: 'card' });

    await api.pay(first.id, { amount: 500, paid_at: '2026-01-15', method: 'cash' });
    const latest = await recentPaymentsOfContact(org.db, org.org.id, mine.id, 2);
    expect(latest.map((p) => [p.amount, p.paid_at, p.document_number])).toEqual([
      [2000, '2026-02-03', second.number],
      [1000, '2026-02-01', first.number],
    ]);
    expect((await recentPaymentsOfContact(org.db, org.org.id, other.id)).map((p) => p.amount)).toEqual([3000]);
    const stranger = await createTestOrg();
    expect(await recentPaymentsOfContact(stranger.db, stranger.org.id, mine.id)).toEqual([]);
  });
});
