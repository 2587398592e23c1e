import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as setupRoute from '@/app/v1/invoices/[id]/sepa-mandate-setup/route';
import { onlinePayments, payments } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, documentRow, eventsOf, line } from '@/lib/domain/documents/testing';
import { ApiError } from '@/lib/platform/errors';
import { withoutStripe } from '@/lib/domain/payments/testing';
import { connectedStripe } from '@/lib/domain/payments/testing/connected-stripe';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { chargeMandate, chargeMandateKey } from './charge-mandate';
import { connectAccount } from './connect-account';

const ctx = connectedStripe({ webhook: true });
let api: Awaited<ReturnType<typeof billingContext>>;
beforeAll(async () => {
  api = await billingContext(ctx.org);
});

/** A fresh client and an issued invoice of 1 080,00 € TTC to it. */
async function clientInvoice() {
  const client = await api.contact({ email: 'compta@client.example' });
  const invoice = await api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '2', 45000)] });
  return { client, invoice };
}
/** The client's mandate, signed on the fake's setup Checkout and recorded through the signed webhook. */
async function signMandate(invoiceId: string) {
  const res = await call(setupRoute.POST, 'POST', `/v1/invoices/${invoiceId}/sepa-mandate-setup`, { token: api.token, params: { id: invoiceId } });
  return ctx.fake.completeSetup(res.body.setup_url.split('/checkout/')[1]);
}
async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return [(err as ApiError).status, (err as ApiError).code];
}
const rowsOf = (documentId: string) => ctx.org.db.select().from(onlinePayments).where(eq(onlinePayments.document_id, documentId)).orderBy(onlinePayments.mandate_attempt);
const debitsOf = (documentId: string) => ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && (r.body.metadata as { document_id?: string })?.document_id === documentId);

describe('chargeMandate: refusals, in order', () => {
  it('503 payments_disabled, 409 payments_account_required / not_ready, 404 another org, 409 not_payable, 409 no_active_mandate', async () => {
    const { invoice } = await clientInvoice();
    await withoutStripe(async () => {
      expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1))).toEqual([503, 'payments_disabled']);
    });
    const bare = await createTestOrg();
    expect(await refusal(chargeMandate(bare.db, bare.org.id, invoice.id, 1))).toEqual([409, 'payments_account_required']);
    const pending = await createTestOrg();
    await connectAccount(pending.db, pending.org.id, ctx.fake.addAccount({ charges_enabled: false }).id);
    expect(await refusal(chargeMandate(pending.db, pending.org.id, invoice.id, 1))).toEqual([409, 'payments_account_not_ready']);
    const other = await createTestOrg();
    await connectAccount(other.db, other.org.id, ctx.fake.addAccount().id);
    expect(await refusal(chargeMandate(other.db, other.org.id, invoice.id, 1))).toEqual([404, 'not_found']);

    const draft = await api.draft({ type: 'facture', contact_id: invoice.contact_id, items: [line('A', '1', 100)] });
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, draft.id, 1))).toEqual([409, 'not_payable']);
    const paid = await clientInvoice();
    await api.pay(paid.invoice.id, { amount: paid.invoice.total_ttc });
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, paid.invoice.id, 1))).toEqual([409, 'not_payable']);

    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1))).toEqual([409, 'no_active_mandate']);
    expect(await rowsOf(invoice.id)).toEqual([]);
    expect(debitsOf(invoice.id)).toEqual([]);
  });

  it('409 no_active_mandate once the bank made the mandate inactive', async () => {
    const { invoice } = await clientInvoice();
    const done = await signMandate(invoice.id);
    await ctx.fake.updateMandate(done.mandate, 'inactive');
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1))).toEqual([409, 'no_active_mandate']);
  });
});

describe('chargeMandate: the off-session debit', () => {
  it('debits the balance once per attempt (idempotency key charge-mandate:<invoice>:<attempt>), recorded processing, then settled through the webhook', async () => {
    const { invoice } = await clientInvoice();
    const done = await signMandate(invoice.id);
    // 30 % paid by transfer first: the debit asks for the remaining 70 %.
    await api.pay(invoice.id, { amount: 32400, method: 'bank_transfer' });

    const first = await chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1);
    expect(first).toMatchObject({ document_id: invoice.id, method: 'sepa_debit', amount: 75600, status: 'processing' });
    expect(JSON.stringify(first)).not.toMatch(/\b(pi|pm|cus|mandate)_/);
    const [debit] = debitsOf(invoice.id);
    expect(debit!.headers).toMatchObject({ 'stripe-account': ctx.account, 'idempotency-key': chargeMandateKey(invoice.id, 1) });
    expect(chargeMandateKey(invoice.id, 1)).toBe(`charge-mandate:${invoice.id}:1`);
    expect(debit!.body).toMatchObject({
      amount: '75600',
      currency: 'eur',
      confirm: 'true',
      off_session: 'true',
      allowed_payment_method_types: ['sepa_debit'],
      payment_method: done.payment_method,
      mandate: done.mandate,
      metadata: { org_id: ctx.org.org.id, document_id: invoice.id, mandate_attempt: '1' },
    });
    const [row] = await rowsOf(invoice.id);
    expect(row).toMatchObject({ method: 'sepa_debit', status: 'processing', mandate_attempt: 1, provider_payment_id: expect.stringMatching(/^pi_/), checkout_session_id: null });

    // Replaying the attempt: the same debit, nothing asked of the provider.
    expect(await chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1)).toEqual(first);
    expect(debitsOf(invoice.id)).toHaveLength(1);
    // Another attempt while this one is on its way: refused.
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 2))).toEqual([409, 'payment_processing']);
    expect((await documentRow(ctx.org.db, invoice.id))!.status).toBe('sent');

    // The bank settles it: payment_intent.succeeded → the same service as a manual payment.
    expect(await ctx.fake.settleSepa(row!.provider_payment_id!, 'succeeded')).toEqual([200]);
    const [settled] = await rowsOf(invoice.id);
    expect(settled).toMatchObject({ status: 'succeeded', payment_id: expect.any(String) });
    const paid = await ctx.org.db.select().from(payments).where(and(eq(payments.document_id, invoice.id), eq(payments.method, 'sepa_debit')));
    expect(paid).toMatchObject([{ amount: 75600, reference: row!.provider_payment_id }]);
    expect((await documentRow(ctx.org.db, invoice.id))!.status).toBe('paid');
    expect((await eventsOf(ctx.org, 'invoice.paid')).some((e) => (e.payload as { object: { id: string } }).object.id === invoice.id)).toBe(true);
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 2))).toEqual([409, 'not_payable']);
  });

  it('a debit returned by the bank leaves the invoice unpaid; the next attempt debits again', async () => {
    const { invoice } = await clientInvoice();
    await signMandate(invoice.id);
    const first = await chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1);
    const [row] = await rowsOf(invoice.id);
    expect(await ctx.fake.settleSepa(row!.provider_payment_id!, 'failed')).toEqual([200]);
    expect((await rowsOf(invoice.id))[0]).toMatchObject({ id: first.id, status: 'failed', failure_message: expect.stringContaining('insufficient funds') });
    expect((await documentRow(ctx.org.db, invoice.id))!.status).not.toBe('paid');

    const second = await chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 2);
    expect(second).toMatchObject({ status: 'processing', amount: invoice.total_ttc });
    expect(second.id).not.toBe(first.id);
    expect(debitsOf(invoice.id).map((r) => r.headers['idempotency-key'])).toEqual([chargeMandateKey(invoice.id, 1), chargeMandateKey(invoice.id, 2)]);
  });

  it('two calls of the same attempt racing make one debit and one row', async () => {
    const { invoice } = await clientInvoice();
    await signMandate(invoice.id);
    const [a, b] = await Promise.all([chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1), chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1)]);
    expect(a.id).toBe(b.id);
    expect(await rowsOf(invoice.id)).toHaveLength(1);
    // Both may reach the provider; its idempotency key makes them one payment intent.
    const intents = [...ctx.fake.objects.values()].filter((o) => o.object.object === 'payment_intent' && (o.object.metadata as { document_id?: string }).document_id === invoice.id);
    expect(intents).toHaveLength(1);
  });

  it('two different attempts racing debit once: the other is refused 409 payment_processing', async () => {
    const { invoice } = await clientInvoice();
    await signMandate(invoice.id);
    const results = await Promise.allSettled([chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1), chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 2)]);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r.reason as { code?: string }).code);
    expect(refused).toEqual(['payment_processing']);
    const intents = [...ctx.fake.objects.values()].filter((o) => o.object.object === 'payment_intent' && (o.object.metadata as { document_id?: string }).document_id === invoice.id);
    expect(intents).toHaveLength(1);
    expect(await rowsOf(invoice.id)).toHaveLength(1);
  });

  it('a reservation left without its debit (a process died during the call) is resumed by its attempt, not a dead end', async () => {
    const { invoice } = await clientInvoice();
    await signMandate(invoice.id);
    const old = new Date(Date.now() - 5 * 60_000);
    await ctx.org.db.insert(onlinePayments).values({ org_id: ctx.org.org.id, document_id: invoice.id, method: 'sepa_debit', amount: invoice.total_ttc, status: 'processing', mandate_attempt: 1, created_at: old });
    expect(await refusal(chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 2))).toEqual([409, 'payment_processing']);
    const resumed = await chargeMandate(ctx.org.db, ctx.org.org.id, invoice.id, 1);
    expect(resumed).toMatchObject({ status: 'processing', amount: invoice.total_ttc });
    expect(debitsOf(invoice.id).map((r) => r.headers['idempotency-key'])).toEqual([chargeMandateKey(invoice.id, 1)]);
    const [row] = await rowsOf(invoice.id);
    expect(row!.provider_payment_id).toMatch(/^pi_/);
  });
});
