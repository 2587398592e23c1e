import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as onlineRefundsRoute from '@/app/v1/invoices/[id]/online-refunds/route';
import { onlinePayments, onlineRefunds, payments } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, documentRow, eventsOf, line } from '@/lib/domain/documents/testing';
import { withoutStripe } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { createOnlineRefund, refundState } from './online-refunds';
import { paymentProvider } from './stripe-provider';

/*
 * Refunds through the provider, against the fake Stripe behind the real SDK, its events POSTed to the real webhook
 * route: pending until refund.updated says succeeded, then counted once on the credit note.
 */

const ctx = connectedStripe({ webhook: true });
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
beforeAll(async () => {
  api = await billingContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example' });
});

const refund = (id: string, body: unknown, headers: Record<string, string> = {}, token = api.token) =>
  call(onlineRefundsRoute.POST, 'POST', `/v1/invoices/${id}/online-refunds`, { token, params: { id }, body, headers });
const listRefunds = (id: string, token = api.token) => call(onlineRefundsRoute.GET, 'GET', `/v1/invoices/${id}/online-refunds`, { token, params: { id } });
const paymentsOf = (documentId: string) =>
  ctx.org.db.select().from(payments).where(and(eq(payments.org_id, ctx.org.org.id), eq(payments.document_id, documentId))).orderBy(payments.created_at);
const refundRequests = () => ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
/** The provider's id of one of our refunds (never in the API body). */
const providerId = async (id: string) => (await ctx.org.db.select().from(onlineRefunds).where(eq(onlineRefunds.id, id)))[0]!.provider_refund_id!;

/** An invoice of 1 080,00 € TTC paid by card on its /pay page, and the payment intent. */
async function paidByCard() {
  const doc = await api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)] });
  const id = randomUUID();
  const session = await paymentProvider()!.createCheckoutSession(ctx.account, {
    mode: 'payment',
    amount: doc.total_ttc,
    description: 'Facture',
    methods: ['card'],
    success_url: 'http://localhost:3000/pay/x?status=success',
    cancel_url: 'http://localhost:3000/pay/x?status=cancel',
    metadata: { org_id: ctx.org.org.id, document_id: doc.id, online_payment_id: id },
  });
  await ctx.org.db.insert(onlinePayments).values({ id, org_id: ctx.org.org.id, document_id: doc.id, checkout_session_id: session.id, method: 'card', amount: doc.total_ttc, status: 'open' });
  const { payment_intent } = await ctx.fake.completeCheckout(session.id);
  expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('paid');
  return { doc, payment_intent, onlinePaymentId: id };
}
/** Its finalized credit note of `ht` cents HT at 20 %. */
async function creditNote(invoiceId: string, ht: number) {
  const draft = api.expectStatus(await api.creditNote(invoiceId, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', ht)] }), 201, 'credit');
  return api.expectStatus(await api.finalize(draft.id), 200, 'finalize credit');
}

describe('POST /v1/invoices/{id}/online-refunds', () => {
  it('refunds a credit note through the provider: pending (nothing counted) until refund.updated says succeeded, then on the credit note once', async () => {
    const { doc, payment_intent, onlinePaymentId } = await paidByCard();
    const credit = await creditNote(doc.id, 20000); // 240,00 € TTC
    const res = await refund(credit.id, { amount: 24000 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      document_id: doc.id,
      online_payment_id: onlinePaymentId,
      amount: 24000,
      status: 'pending',
      origin: 'paraphe',
      failure_reason: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    // The provider was asked for this payment intent, with our id as its idempotency key and in its metadata.
    const [asked] = refundRequests().slice(-1);
    expect(asked!.body).toMatchObject({ payment_intent, amount: '24000', metadata: { online_refund_id: res.body.id, org_id: ctx.org.org.id } });
    expect(asked!.headers['idempotency-key']).toBe(`online-refund:${res.body.id}`);
    // refund.created and charge.refunded arrive: still pending, nothing counted, and it is held back from a new refund.
    expect(await ctx.fake.flush()).toEqual([200]);
    expect(await paymentsOf(credit.id)).toEqual([]);
    expect(await refundState(ctx.org.db, ctx.org.org.id, doc.id)).toEqual({ owed: 24000, pending: 24000, refundable: 0, online: 0 });
    const offline = await api.refund(doc.id, { amount: 100 });
    expect([offline.status, offline.body.code]).toEqual([409, 'not_refundable']);
    const again = await refund(doc.id, { amount: 100 });
    expect([again.status, again.body.code]).toEqual([409, 'not_refundable']);

    const reId = await providerId(res.body.id);
    expect(await ctx.fake.settleRefund(reId, 'succeeded')).toEqual([200]);
    expect((await paymentsOf(credit.id)).map((p) => [p.amount, p.method, p.reference])).toEqual([[-24000, 'card', reId]]);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'paid' });
    expect((await ctx.org.db.select().from(onlinePayments).where(eq(onlinePayments.id, onlinePaymentId)))[0]).toMatchObject({ amount_refunded: 24000 });
    expect(((await eventsOf(ctx.org, 'payment.refunded')).at(-1)!.payload as { object: { amount: number } }).object.amount).toBe(-24000);
    const list = await listRefunds(credit.id);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ id: res.body.id, status: 'succeeded', amount: 24000 })]);
    // A late copy of every event changes nothing.
    for (const event of ctx.fake.events.filter((e) => e.type.startsWith('refund.') || e.type === 'charge.refunded')) await ctx.fake.redeliver(event);
    expect((await paymentsOf(credit.id)).map((p) => p.amount)).toEqual([-24000]);
    expect(await refundState(ctx.org.db, ctx.org.org.id, doc.id)).toEqual({ owed: 0, pending: 0, refundable: 0, online: 0 });
  });

  it('refunds in parts up to what is owed: beyond it 422 on amount; once all is given back 409 not_refundable', async () => {
    const { doc } = await paidByCard();
    const credit = await creditNote(doc.id, 90000); // the whole 1 080,00 €
    const tooMuch = await refund(credit.id, { amount: 108001 });
    expect([tooMuch.status, tooMuch.body.code, tooMuch.body.field]).toEqual([422, 'validation_error', 'amount']);
    const first = await refund(credit.id, { amount: 50000 });
    expect(first.status).toBe(201);
    const over = await refund(credit.id, { amount: 58001 });
    expect([over.status, over.body.field]).toEqual([422, 'amount']);
    const rest = await refund(credit.id, { amount: 58000 });
    expect(rest.status).toBe(201);
    await ctx.fake.flush();
    await ctx.fake.settleRefund(await providerId(first.body.id), 'succeeded');
    await ctx.fake.settleRefund(await providerId(rest.body.id), 'succeeded');
    expect((await paymentsOf(credit.id)).map((p) => p.amount).sort()).toEqual([-50000, -58000]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'paid' });
    const none = await refund(credit.id, { amount: 1 });
    expect([none.status, none.body.code]).toEqual([409, 'not_refundable']);
    expect(refundRequests().filter((r) => r.body.payment_intent)).toHaveLength(refundRequests().length);
  });

  it('a refund the card network fails counts nothing and frees the amount; one failing after success is taken back', async () => {
    const { doc } = await paidByCard();
    const credit = await creditNote(doc.id, 20000);
    const res = await refund(credit.id, { amount: 24000 });
    await ctx.fake.flush();
    expect(await ctx.fake.settleRefund(await providerId(res.body.id), 'failed')).toEqual([200, 200]);
    expect((await listRefunds(doc.id)).body.data[0]).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
    expect(await paymentsOf(credit.id)).toEqual([]);
    expect((await refundState(ctx.org.db, ctx.org.org.id, doc.id)).refundable).toBe(24000);

    const second = await refund(credit.id, { amount: 24000 });
    await ctx.fake.flush();
    const reId = await providerId(second.body.id);
    await ctx.fake.settleRefund(reId, 'succeeded');
    expect((await paymentsOf(credit.id)).map((p) => p.amount)).toEqual([-24000]);
    // The bank returns it later: Stripe moves the refund to failed.
    const object = ctx.fake.objects.get(reId)!.object;
    Object.assign(object, { status: 'failed', failure_reason: 'lost_or_stolen_card' });
    expect(await ctx.fake.emit(ctx.account, 'refund.updated', object)).toBe(200);
    expect(await paymentsOf(credit.id)).toEqual([]);
    expect((await eventsOf(ctx.org, 'payment.deleted')).at(-1)!.payload).toMatchObject({ object: { amount: -24000, reference: reId } });
    expect((await listRefunds(doc.id)).body.data[0]).toMatchObject({ id: second.body.id, status: 'failed', failure_reason: 'lost_or_stolen_card' });
    expect((await refundState(ctx.org.db, ctx.org.org.id, doc.id)).refundable).toBe(24000);
  });

  it('asks the provider once for a double submission (Idempotency-Key, or the form’s key)', async () => {
    const { doc } = await paidByCard();
    const credit = await creditNote(doc.id, 20000);
    const before = refundRequests().length;
    const headers = { 'idempotency-key': `double-click-${randomUUID()}` };
    const one = await refund(credit.id, { amount: 1000 }, headers);
    const two = await refund(credit.id, { amount: 1000 }, headers);
    expect([one.status, two.status, two.body.id]).toEqual([201, 201, one.body.id]);
    const key = `form:${randomUUID()}`;
    const a = await createOnlineRefund(ctx.org.db, ctx.org.org.id, credit.id, { amount: 2000, idempotency_key: key });
    const b = await createOnlineRefund(ctx.org.db, ctx.org.org.id, credit.id, { amount: 2000, idempotency_key: key });
    expect(b.id).toBe(a.id);
    expect(refundRequests().length - before).toBe(2);
    expect(await ctx.org.db.select().from(onlineRefunds).where(eq(onlineRefunds.document_id, doc.id))).toHaveLength(2);
    await ctx.fake.flush();
  });

  it('says the provider’s refusal (502), marks the refund failed and counts nothing', async () => {
    const { doc, payment_intent } = await paidByCard();
    const credit = await creditNote(doc.id, 20000);
    // Refunded in full in the dashboard while our webhook was down: we still think 240 € can go back.
    const webhook = ctx.fake.webhook;
    ctx.fake.webhook = null;
    await ctx.fake.refund(payment_intent);
    ctx.fake.webhook = webhook;
    const res = await refund(credit.id, { amount: 24000 });
    expect([res.status, res.body.code]).toEqual([502, 'payments_provider_error']);
    expect((await listRefunds(doc.id)).body.data[0]).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('already been refunded') });
    expect(await paymentsOf(credit.id)).toEqual([]);
  });

  it('refuses an invoice not paid online (409 no_online_payment), a draft credit note, and answers 503 without the provider', async () => {
    const doc = await api.issued({ type: 'facture', contact_id: client.id, items: [line('Audit', '1', 10000)] });
    api.expectStatus(await api.pay(doc.id, { amount: 12000 }), 201, 'pay');
    const credit = await creditNote(doc.id, 2000);
    const res = await refund(credit.id, { amount: 2400 });
    expect([res.status, res.body.code]).toEqual([409, 'no_online_payment']);
    const other = await api.issued({ type: 'facture', contact_id: client.id, items: [line('Audit', '1', 10000)] });
    const draft = api.expectStatus(await api.creditNote(other.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 100)] }), 201, 'draft');
    expect((await refund(draft.id, { amount: 100 })).body.code).toBe('not_refundable');
    const off = await withoutStripe(() => refund(credit.id, { amount: 2400 }));
    expect([off.status, off.body.code]).toEqual([503, 'payments_disabled']);
    expect((await refund(credit.id, { amount: 0 })).body.field).toBe('amount');
  });

  it('401 without a key, 403 without invoice:write to refund or invoice:read to list, and nothing written', async () => {
    const { doc } = await paidByCard();
    const credit = await creditNote(doc.id, 20000);
    expect((await refund(credit.id, { amount: 100 }, {}, '')).status).toBe(401);
    expect((await listRefunds(credit.id, '')).status).toBe(401);
    const readOnly = await ctx.org.key(['invoice:read']);
    const forbidden = await refund(credit.id, { amount: 100 }, {}, readOnly);
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'forbidden']);
    expect((await listRefunds(credit.id, await ctx.org.key(['contacts:read']))).status).toBe(403);
    expect((await listRefunds(credit.id, readOnly)).status).toBe(200);
    expect(await ctx.org.db.select().from(onlineRefunds).where(eq(onlineRefunds.document_id, credit.id))).toEqual([]);
  });

  it('another org’s credit note or invoice is a 404, for the refund and its list', async () => {
    const { doc } = await paidByCard();
    const credit = await creditNote(doc.id, 20000);
    const stranger = await createTestOrg();
    const token = await stranger.key();
    for (const id of [credit.id, doc.id]) {
      expect((await refund(id, { amount: 100 }, {}, token)).status).toBe(404);
      expect((await listRefunds(id, token)).status).toBe(404);
    }
    expect(await ctx.org.db.select().from(onlineRefunds).where(eq(onlineRefunds.document_id, doc.id))).toEqual([]);
  });

  it('a dashboard refund is counted from refund.created by its id, not from charge.refunded (whose charge lists no refunds)', async () => {
    const { doc, payment_intent } = await paidByCard();
    const webhook = ctx.fake.webhook;
    ctx.fake.webhook = null;
    const { refund: reId } = await ctx.fake.refund(payment_intent, 3000);
    ctx.fake.webhook = webhook;
    const [created, charged] = ctx.fake.events.slice(-2);
    // As the pinned API version sends it: the charge without its refunds.
    const bare = { ...charged!.data.object, refunds: undefined };
    expect(await ctx.fake.emit(ctx.account, 'charge.refunded', bare)).toBe(200);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000]);
    expect(await ctx.fake.redeliver(created!)).toBe(200);
    expect((await paymentsOf(doc.id)).map((p) => [p.amount, p.reference])).toEqual([
      [108000, payment_intent],
      [-3000, reId],
    ]);
    expect((await listRefunds(doc.id)).body.data).toEqual([expect.objectContaining({ amount: 3000, status: 'succeeded', origin: 'provider' })]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'sent' });
  });
});
