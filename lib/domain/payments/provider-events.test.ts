import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import * as webhookRoute from '@/app/api/stripe/webhook/route';
import { onlinePayments, onlineRefunds, paymentAccounts, payments, providerEvents } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, documentRow, eventsOf, line } from '@/lib/domain/documents/testing';
import { TEST_WEBHOOK_SECRET } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { connectAccount } from './connect-account';
import { onlinePaymentsOfDocument } from './online-payments';
import { paymentProvider } from './stripe-provider';

const ctx = connectedStripe({ webhook: true });
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
beforeAll(async () => {
  api = await billingContext(ctx.org);
  client = await api.contact({ email: 'compta@client.example' });
});

/** An issued invoice of 1 080,00 € TTC (900 € HT). */
const invoice = () => api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)] });

/** What the /pay page does: a Checkout Session on the org's account for `amount`, and its online_payments row (open). */
async function openCheckout(documentId: string, amount: number, method: 'card' | 'sepa_debit' = 'card', target = ctx.org, acct = ctx.account) {
  const id = randomUUID();
  const session = await paymentProvider()!.createCheckoutSession(acct, {
    mode: 'payment',
    amount,
    description: 'Facture',
    methods: [method],
    success_url: 'http://localhost:3000/pay/x?status=success&session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost:3000/pay/x?status=cancel',
    metadata: { org_id: target.org.id, document_id: documentId, online_payment_id: id },
  });
  await target.db.insert(onlinePayments).values({ id, org_id: target.org.id, document_id: documentId, checkout_session_id: session.id, method, amount, status: 'open' });
  return { id, session: session.id };
}

const row = async (id: string) => (await ctx.org.db.select().from(onlinePayments).where(eq(onlinePayments.id, id)))[0]!;
const paymentsOf = (documentId: string, target = ctx.org) =>
  target.db.select().from(payments).where(and(eq(payments.org_id, target.org.id), eq(payments.document_id, documentId))).orderBy(payments.created_at);
const post = (body: string, headers: Record<string, string>) => call(webhookRoute.POST as never, 'POST', '/api/stripe/webhook', { rawBody: body, headers });
const signedEvent = (object: Record<string, unknown>, type = 'payment_intent.succeeded', acct: string | null = ctx.account) => {
  const body = JSON.stringify({ id: `evt_${randomUUID().replaceAll('-', '')}`, object: 'event', type, account: acct, created: Math.floor(Date.now() / 1000), data: { object } });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: TEST_WEBHOOK_SECRET }) };
};

describe('POST /api/stripe/webhook: verification', () => {
  it('answers 400 invalid_signature without a signature or with a wrong one, and writes nothing', async () => {
    const { body } = signedEvent({ id: 'pi_x', object: 'payment_intent' });
    const missing = await post(body, {});
    expect([missing.status, missing.body.code]).toEqual([400, 'invalid_signature']);
    const wrong = await post(body, { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_someone_else' }) });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'invalid_signature']);
    const altered = signedEvent({ id: 'pi_y', object: 'payment_intent' });
    const tampered = await post(altered.body.replace('pi_y', 'pi_z'), { 'stripe-signature': altered.signature });
    expect(tampered.status).toBe(400);
    expect(await ctx.org.db.select().from(providerEvents).where(eq(providerEvents.event_id, JSON.parse(body).id))).toEqual([]);
  });

  it('answers 503 payments_disabled when the webhook secret (or the secret key) is not set', async () => {
    const { body, signature } = signedEvent({ id: 'pi_x', object: 'payment_intent' });
    for (const name of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY']) {
      const saved = process.env[name];
      delete process.env[name];
      try {
        const res = await post(body, { 'stripe-signature': signature });
        expect([res.status, res.body.code], name).toEqual([503, 'payments_disabled']);
      } finally {
        process.env[name] = saved;
      }
    }
  });

  it('acknowledges and ignores the events of an account no org connected (once), and types it does not use', async () => {
    const stranger = signedEvent({ id: 'pi_stranger', object: 'payment_intent', metadata: {} }, 'payment_intent.succeeded', 'acct_nobody');
    const res = await post(stranger.body, { 'stripe-signature': stranger.signature });
    expect([res.status, res.body]).toEqual([200, { received: true, duplicate: false, handled: false }]);
    const again = await post(stranger.body, { 'stripe-signature': stranger.signature });
    expect(again.body).toEqual({ received: true, duplicate: true, handled: false });
    const other = signedEvent({ id: 'cus_1', object: 'customer' }, 'customer.created');
    expect((await post(other.body, { 'stripe-signature': other.signature })).body).toEqual({ received: true, duplicate: false, handled: false });
  });
});

describe('card payments', () => {
  it('settles a paid Checkout once, through the manual-payment service, whatever the replays', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const { payment_intent, statuses } = await ctx.fake.completeCheckout(session, { method: 'card' });
    expect(statuses).toEqual([200, 200]);
    const [payment, ...more] = await paymentsOf(doc.id);
    expect(more).toEqual([]);
    expect(payment).toMatchObject({ amount: 108000, method: 'card', reference: payment_intent, paid_at: todayParis() });
    expect(await row(id)).toMatchObject({ status: 'succeeded', payment_id: payment!.id, provider_payment_id: payment_intent, method: 'card' });
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('paid');
    // Stripe retries: every event again, then an out-of-order processing after the success.
    for (const event of ctx.fake.events.filter((e) => e.data.object.id === session || e.data.object.id === payment_intent)) {
      expect(await ctx.fake.redeliver(event)).toBe(200);
    }
    const pi = ctx.fake.objects.get(payment_intent)!.object;
    expect(await ctx.fake.emit(ctx.account, 'payment_intent.processing', { ...pi, status: 'processing' })).toBe(200);
    expect(await ctx.fake.emit(ctx.account, 'payment_intent.payment_failed', { ...pi, status: 'requires_payment_method' })).toBe(200);
    expect(await paymentsOf(doc.id)).toHaveLength(1);
    expect((await row(id)).status).toBe('succeeded');
    const paidEvents = (await eventsOf(ctx.org, 'invoice.paid')).filter((e) => (e.payload as { object: { id: string } }).object.id === doc.id);
    expect(paidEvents).toHaveLength(1);
    expect(await onlinePaymentsOfDocument(ctx.org.db, ctx.org.org.id, doc.id)).toEqual([expect.objectContaining({ id, status: 'succeeded', amount: 108000, method: 'card' })]);
  });

  it('marks a declined card failed (payment.failed), and a later success on the same session settles it', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    await ctx.fake.completeCheckout(session, { method: 'card', outcome: 'failed' });
    expect(await row(id)).toMatchObject({ status: 'failed', failure_message: 'Your card was declined.' });
    const failed = (await eventsOf(ctx.org, 'payment.failed')).at(-1)!.payload as { object: Record<string, unknown> };
    expect(failed.object).toMatchObject({ id, document_id: doc.id, status: 'failed', method: 'card', amount: 108000 });
    expect(failed.object).not.toHaveProperty('provider_payment_id');
    await ctx.fake.completeCheckout(session, { method: 'card', outcome: 'paid' });
    expect((await row(id)).status).toBe('succeeded');
    expect(await paymentsOf(doc.id)).toHaveLength(1);
  });

  it('expires an unpaid session; a late event does not bring it back', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    await ctx.fake.expireCheckout(session);
    expect((await row(id)).status).toBe('expired');
    await ctx.fake.emit(ctx.account, 'checkout.session.completed', { ...ctx.fake.objects.get(session)!.object, payment_status: 'unpaid' });
    expect((await row(id)).status).toBe('expired');
  });

  it('records the 30 % then 70 % as two payments: paid at the second, invoice.paid once', async () => {
    const doc = await invoice();
    const first = await openCheckout(doc.id, 32400);
    await ctx.fake.completeCheckout(first.session);
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('sent');
    const second = await openCheckout(doc.id, 75600);
    await ctx.fake.completeCheckout(second.session);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([32400, 75600]);
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('paid');
    const paid = (await eventsOf(ctx.org, 'invoice.paid')).filter((e) => (e.payload as { object: { id: string } }).object.id === doc.id);
    expect(paid).toHaveLength(1);
  });
});

describe('SEPA debits', () => {
  it('shows a processing debit without marking the invoice paid, then records it when the bank settles', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc, 'sepa_debit');
    const { payment_intent } = await ctx.fake.completeCheckout(session, { method: 'sepa_debit' });
    expect(await row(id)).toMatchObject({ status: 'processing', provider_payment_id: payment_intent, payment_id: null });
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('finalized');
    expect(await paymentsOf(doc.id)).toEqual([]);
    expect((await onlinePaymentsOfDocument(ctx.org.db, ctx.org.org.id, doc.id))[0]).toMatchObject({ status: 'processing', method: 'sepa_debit' });
    expect(await ctx.fake.settleSepa(payment_intent, 'succeeded')).toEqual([200, 200]);
    expect(await paymentsOf(doc.id)).toEqual([expect.objectContaining({ amount: 108000, method: 'sepa_debit', reference: payment_intent })]);
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('paid');
  });

  it('marks a debit returned after processing failed, emits payment.failed, and leaves the invoice unpaid', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc, 'sepa_debit');
    const { payment_intent } = await ctx.fake.completeCheckout(session, { method: 'sepa_debit' });
    const before = (await eventsOf(ctx.org, 'payment.failed')).length;
    await ctx.fake.settleSepa(payment_intent, 'failed');
    expect(await row(id)).toMatchObject({ status: 'failed', failure_message: 'The account has insufficient funds to cover this payment.' });
    expect((await eventsOf(ctx.org, 'payment.failed')).length).toBe(before + 1);
    expect(await paymentsOf(doc.id)).toEqual([]);
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('finalized');
    expect((await onlinePaymentsOfDocument(ctx.org.db, ctx.org.org.id, doc.id))[0]).toMatchObject({ status: 'failed', failure_message: expect.stringContaining('insufficient') });
  });
  it('settles an off-session debit found by its payment intent (a row with no session)', async () => {
    const doc = await invoice();
    const pi = ctx.fake.createPaymentIntent(ctx.account, { amount: doc.total_ttc, method: 'sepa_debit', metadata: { org_id: ctx.org.org.id, document_id: doc.id } });
    pi.status = 'processing';
    const [debit] = await ctx.org.db
      .insert(onlinePayments)
      .values({ org_id: ctx.org.org.id, document_id: doc.id, provider_payment_id: String(pi.id), method: 'sepa_debit', amount: doc.total_ttc, status: 'open', mandate_attempt: 1 })
      .returning();
    expect(await ctx.fake.emit(ctx.account, 'payment_intent.processing', pi)).toBe(200);
    expect((await row(debit!.id)).status).toBe('processing');
    expect(await ctx.fake.settleSepa(String(pi.id), 'succeeded')).toEqual([200]);
    expect(await row(debit!.id)).toMatchObject({ status: 'succeeded', payment_id: expect.any(String) });
    expect(await paymentsOf(doc.id)).toEqual([expect.objectContaining({ amount: doc.total_ttc, method: 'sepa_debit', reference: pi.id })]);
  });

  it('records money that arrives on a document cancelled meanwhile, which stays cancelled', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc, 'sepa_debit');
    const { payment_intent } = await ctx.fake.completeCheckout(session, { method: 'sepa_debit' });
    api.expectStatus(await api.cancel(doc.id), 200, 'cancel');
    await ctx.fake.settleSepa(payment_intent, 'succeeded');
    expect((await row(id)).status).toBe('succeeded');
    expect(await paymentsOf(doc.id)).toEqual([expect.objectContaining({ amount: 108000, method: 'sepa_debit' })]);
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('cancelled');
  });
});

describe('refunds and disputes', () => {
  it('records a provider refund as a negative payment: the balance is owed again, payment.refunded, replay-safe', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const { payment_intent } = await ctx.fake.completeCheckout(session);
    const partial = await ctx.fake.refund(payment_intent, 8000);
    // refund.created, then charge.refunded, as Stripe sends them; the refund counted once, by its id.
    expect(partial.statuses).toEqual([200, 200]);
    expect((await paymentsOf(doc.id)).map((p) => [p.amount, p.method, p.reference])).toEqual([
      [108000, 'card', payment_intent],
      [-8000, 'card', partial.refund],
    ]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'sent' });
    const refunded = (await eventsOf(ctx.org, 'payment.refunded')).at(-1)!.payload as { object: { amount: number; document_id: string } };
    expect(refunded.object).toMatchObject({ amount: -8000, document_id: doc.id });
    // A replay and a late copy of the first refund's event change nothing.
    await ctx.fake.redeliver(ctx.fake.events.at(-1)!);
    const rest = await ctx.fake.refund(payment_intent);
    await ctx.fake.redeliver(ctx.fake.events.find((e) => e.type === 'charge.refunded' && e.data.object.amount_refunded === 8000)!);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000, -8000, -100000]);
    expect((await paymentsOf(doc.id)).at(-1)!.reference).toBe(rest.refund);
    expect(await row(id)).toMatchObject({ amount_refunded: 108000, status: 'succeeded' });
    // Made in the dashboard: listed with the invoice's online refunds, as the provider's.
    const listed = await ctx.org.db.select().from(onlineRefunds).where(eq(onlineRefunds.document_id, doc.id));
    expect(listed.map((r) => [r.amount, r.status, r.origin]).sort()).toEqual([
      [100000, 'succeeded', 'provider'],
      [8000, 'succeeded', 'provider'],
    ]);
    const res = await api.get(doc.id);
    expect(res.body).toMatchObject({ status: 'sent' });
  });

  it('a provider refund after a credit note pays back the credit note: the invoice stays paid; beyond it, owed again', async () => {
    const doc = await invoice();
    const { session } = await openCheckout(doc.id, doc.total_ttc);
    const { payment_intent } = await ctx.fake.completeCheckout(session);
    const draft = api.expectStatus(await api.creditNote(doc.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 20000)] }), 201, 'credit');
    const credit = api.expectStatus(await api.finalize(draft.id), 200, 'finalize credit'); // 240,00 € TTC
    const refund = await ctx.fake.refund(payment_intent, 24000);
    expect(refund.statuses).toEqual([200, 200]);
    expect((await paymentsOf(credit.id)).map((p) => [p.amount, p.reference])).toEqual([[-24000, refund.refund]]);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'paid' });
    // 100 € more than the credit note: that part is owed again, on the invoice.
    await ctx.fake.refund(payment_intent, 10000);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000, -10000]);
    expect((await paymentsOf(credit.id)).map((p) => p.amount)).toEqual([-24000]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'sent' });
  });

  it('a lost dispute after a credit note takes back what the credit note owed first: the invoice owes only the rest', async () => {
    const doc = await invoice();
    const { session } = await openCheckout(doc.id, doc.total_ttc);
    const { payment_intent } = await ctx.fake.completeCheckout(session);
    const draft = api.expectStatus(await api.creditNote(doc.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 20000)] }), 201, 'credit');
    const credit = api.expectStatus(await api.finalize(draft.id), 200, 'finalize credit'); // 240,00 € TTC
    const { dispute } = await ctx.fake.dispute(payment_intent);
    await ctx.fake.closeDispute(dispute, 'lost');
    expect((await paymentsOf(credit.id)).map((p) => [p.amount, p.reference])).toEqual([[-24000, dispute]]);
    expect((await paymentsOf(doc.id)).map((p) => p.amount)).toEqual([108000, -84000]);
    expect(await documentRow(ctx.org.db, doc.id)).toMatchObject({ status: 'sent' });
  });

  it('shows a dispute on the online payment; a lost dispute takes the money back', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const { payment_intent } = await ctx.fake.completeCheckout(session);
    const { dispute } = await ctx.fake.dispute(payment_intent);
    expect((await row(id)).dispute_status).toBe('needs_response');
    expect((await onlinePaymentsOfDocument(ctx.org.db, ctx.org.org.id, doc.id))[0]).toMatchObject({ dispute_status: 'needs_response' });
    await ctx.fake.closeDispute(dispute, 'lost');
    expect((await row(id)).dispute_status).toBe('lost');
    expect((await paymentsOf(doc.id)).map((p) => [p.amount, p.reference])).toEqual([
      [108000, payment_intent],
      [-108000, dispute],
    ]);
    // A late `created` does not reopen it.
    await ctx.fake.redeliver(ctx.fake.events.find((e) => e.type === 'charge.dispute.created' && e.data.object.id === dispute)!);
    expect((await row(id)).dispute_status).toBe('lost');
  });
});

describe('accounts and orgs', () => {
  it('keeps the readiness current from account.updated', async () => {
    const target = await createTestOrg();
    const acct = ctx.fake.addAccount({ charges_enabled: false });
    await connectAccount(target.db, target.org.id, acct.id);
    Object.assign(acct, { charges_enabled: true, details_submitted: true, capabilities: { card_payments: 'active', sepa_debit_payments: 'pending' } });
    acct.requirements.currently_due = [];
    expect(await ctx.fake.emit(acct.id, 'account.updated', { object: 'account', ...acct })).toBe(200);
    const [saved] = await target.db.select().from(paymentAccounts).where(eq(paymentAccounts.org_id, target.org.id));
    expect(saved).toMatchObject({ charges_enabled: true, details_submitted: true, card_payments: 'active', sepa_debit_payments: 'pending', requirements_due: [] });
  });

  it("never lets another org's account touch this org's payments, even naming them", async () => {
    const other = await createTestOrg();
    const otherAccount = ctx.fake.addAccount().id;
    await connectAccount(other.db, other.org.id, otherAccount);
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const forged = { ...ctx.fake.objects.get(session)!.object, status: 'complete', payment_status: 'paid', payment_intent: 'pi_forged' };
    expect(await ctx.fake.emit(otherAccount, 'checkout.session.completed', forged)).toBe(200);
    expect(await ctx.fake.emit(otherAccount, 'payment_intent.succeeded', { id: 'pi_forged', object: 'payment_intent', amount: 108000, amount_received: 108000, metadata: { org_id: ctx.org.org.id, document_id: doc.id, online_payment_id: id } })).toBe(200);
    expect((await row(id)).status).toBe('open');
    expect(await paymentsOf(doc.id)).toEqual([]);
  });

  it('refuses (for a retry) an event about a payment of the org not recorded yet, and handles its retry', async () => {
    const doc = await invoice();
    const onlineId = randomUUID();
    const session = await paymentProvider()!.createCheckoutSession(ctx.account, {
      mode: 'payment',
      amount: 108000,
      description: 'Facture',
      methods: ['card'],
      success_url: 'http://localhost:3000/ok',
      cancel_url: 'http://localhost:3000/ko',
      metadata: { org_id: ctx.org.org.id, document_id: doc.id, online_payment_id: onlineId },
    });
    const { statuses } = await ctx.fake.completeCheckout(session.id);
    expect(statuses).toEqual([503, 503]);
    const failedEvents = ctx.fake.events.slice(-2);
    expect(await ctx.org.db.select().from(providerEvents).where(eq(providerEvents.event_id, failedEvents[0]!.id))).toEqual([]);
    await ctx.org.db.insert(onlinePayments).values({ id: onlineId, org_id: ctx.org.org.id, document_id: doc.id, checkout_session_id: session.id, method: 'card', amount: 108000 });
    for (const event of failedEvents) expect(await ctx.fake.redeliver(event)).toBe(200);
    expect(await paymentsOf(doc.id)).toHaveLength(1);
  });
});

describe("the fake's hosted Checkout page", () => {
  it('pays through the page (no JavaScript) and returns to the success URL with the session id', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const page = await fetch(`${ctx.fake.url}/checkout/${session}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('1080,00 €');
    for (const label of ['Payer', 'Échec', 'Annuler']) expect(html).toContain(`>${label}</button>`);
    expect(html).not.toContain('<script');
    const res = await fetch(`${ctx.fake.url}/checkout/${session}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'method=card&action=pay',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`http://localhost:3000/pay/x?status=success&session=${session}`);
    expect((await row(id)).status).toBe('succeeded');
    expect((await documentRow(ctx.org.db, doc.id))!.status).toBe('paid');
  });

  it('cancels back to the cancel URL without paying', async () => {
    const doc = await invoice();
    const { id, session } = await openCheckout(doc.id, doc.total_ttc);
    const res = await fetch(`${ctx.fake.url}/checkout/${session}`, { method: 'POST', body: new URLSearchParams({ action: 'cancel' }), redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([303, 'http://localhost:3000/pay/x?status=cancel']);
    expect((await row(id)).status).toBe('open');
  });
});
