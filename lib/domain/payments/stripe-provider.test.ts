import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeSettings } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { type FakeStripe, startFakeStripe } from '@/lib/domain/payments/testing';
import { STRIPE_API_VERSION, StripeProvider, paymentProvider, stripeClient } from './stripe-provider';

let fake: FakeStripe;
let provider: StripeProvider;
beforeAll(async () => {
  fake = await startFakeStripe();
  provider = new StripeProvider(stripeClient(stripeSettings({ STRIPE_SECRET_KEY: 'sk_test_provider', STRIPE_API_BASE: fake.url })!));
});
afterAll(() => fake.close());

describe('configuration', () => {
  it('is off without STRIPE_SECRET_KEY; STRIPE_API_BASE gives the SDK its host, port and protocol', () => {
    expect(stripeSettings({})).toBeNull();
    expect(stripeSettings({ STRIPE_SECRET_KEY: '  ' })).toBeNull();
    expect(paymentProvider({ STRIPE_API_BASE: fake.url })).toBeNull();
    expect(stripeSettings({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toEqual({
      secretKey: 'sk_live_x',
      webhookSecret: 'whsec_1',
      apiBase: null,
    });
    expect(stripeSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'http://127.0.0.1:12111' })!.apiBase).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'https://mock.example' })!.apiBase).toEqual({ host: 'mock.example', port: 443, protocol: 'https' });
    expect(() => stripeSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'localhost:12111' })).toThrow(/STRIPE_API_BASE/);
    expect(() => stripeSettings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_BASE: 'ftp://x' })).toThrow(/http or https/);
  });
});

describe('StripeProvider, the real SDK against the fake', () => {
  it('reads an account: charges, capabilities, requirements due; pinned API version', async () => {
    const ready = fake.addAccount();
    const pending = fake.addAccount({ charges_enabled: false, requirements: { currently_due: ['tos_acceptance.date'], past_due: ['external_account'], eventually_due: [] } });
    expect(await provider.retrieveAccount(ready.id)).toEqual({
      account_id: ready.id,
      charges_enabled: true,
      details_submitted: true,
      card_payments: 'active',
      sepa_debit_payments: 'active',
      requirements_due: [],
    });
    expect(await provider.retrieveAccount(pending.id)).toMatchObject({
      charges_enabled: false,
      sepa_debit_payments: 'inactive',
      requirements_due: ['external_account', 'tos_acceptance.date'],
    });
    const request = fake.requests.at(-1)!;
    expect(request.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(request.headers.authorization).toBe('Bearer sk_test_provider');
  });

  it('an unknown account is a 404 payments_account_not_found', async () => {
    const err = await provider.retrieveAccount('acct_unknown').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'payments_account_not_found' });
  });

  it('creates an onboarding link for the account', async () => {
    const account = fake.addAccount({ charges_enabled: false });
    const link = await provider.createAccountLink(account.id, { refresh_url: 'https://app.example/r', return_url: 'https://app.example/ok' });
    expect(link.url).toContain(fake.url);
    expect(link.expires_at.getTime()).toBeGreaterThan(Date.now());
    expect(fake.requests.at(-1)!.body).toMatchObject({ account: account.id, type: 'account_onboarding', return_url: 'https://app.example/ok' });
  });

  it('creates customers and checkout sessions on the connected account, filtering the methods without payment_method_types', async () => {
    const account = fake.addAccount();
    const customer = await provider.createCustomer(account.id, { email: 'ap@client.example', name: 'Client SARL', metadata: { contact_id: 'c1' }, idempotency_key: 'cust-c1' });
    expect(customer.id).toMatch(/^cus_/);
    expect(fake.requests.at(-1)!.headers['stripe-account']).toBe(account.id);
    // The same idempotency key gives the same customer.
    expect(await provider.createCustomer(account.id, { metadata: { contact_id: 'c1' }, idempotency_key: 'cust-c1' })).toEqual(customer);

    const payment = await provider.createCheckoutSession(account.id, {
      mode: 'payment',
      amount: 108000,
      description: 'Facture F-2026-00001',
      methods: ['card', 'sepa_debit'],
      success_url: 'https://app.example/pay/t?status=success',
      cancel_url: 'https://app.example/pay/t?status=cancel',
      customer_email: 'ap@client.example',
      metadata: { org_id: 'o', document_id: 'd' },
    });
    expect(payment).toMatchObject({ mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 108000, metadata: { org_id: 'o', document_id: 'd' } });
    expect(payment.url).toContain(fake.url);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers['stripe-account']).toBe(account.id);
    expect(sent.body).toMatchObject({ allowed_payment_method_types: ['card', 'sepa_debit'], payment_intent_data: { metadata: { document_id: 'd' } } });
    expect(sent.body).not.toHaveProperty('payment_method_types');
    expect(await provider.retrieveCheckoutSession(account.id, payment.id)).toEqual(payment);

    const setup = await provider.createCheckoutSession(account.id, {
      mode: 'setup',
      customer_id: customer.id,
      methods: ['sepa_debit'],
      success_url: 'https://app.example/ok',
      cancel_url: 'https://app.example/ko',
      metadata: { contact_id: 'c1' },
    });
    expect(setup).toMatchObject({ mode: 'setup', customer_id: customer.id, payment_status: 'no_payment_required', amount_total: null });
    expect(fake.requests.at(-1)!.body).toMatchObject({ mode: 'setup', currency: 'eur', allowed_payment_method_types: ['sepa_debit'] });

    // Another account does not see them.
    const other = fake.addAccount();
    expect(await provider.retrieveCheckoutSession(other.id, payment.id).catch((e) => e)).toMatchObject({ status: 404 });
  });

  it('refunds part of a settled payment intent on the connected account: pending, our metadata, the same refund for the same key; Stripe’s refusals are 502', async () => {
    const account = fake.addAccount();
    const session = await provider.createCheckoutSession(account.id, {
      mode: 'payment',
      amount: 12000,
      description: 'Facture',
      methods: ['card'],
      success_url: 'https://app.example/ok',
      cancel_url: 'https://app.example/ko',
      metadata: {},
    });
    const { payment_intent } = await fake.completeCheckout(session.id);
    const input = { payment_intent_id: payment_intent, amount: 5000, metadata: { online_refund_id: 'r1' }, idempotency_key: 'online-refund:r1' };
    const refund = await provider.createRefund(account.id, input);
    expect(refund).toEqual({ id: expect.stringMatching(/^re_/), status: 'pending', amount: 5000, payment_intent_id: payment_intent, failure_reason: null, metadata: { online_refund_id: 'r1' } });
    expect(fake.requests.at(-1)!).toMatchObject({ path: '/v1/refunds', headers: { 'stripe-account': account.id, 'idempotency-key': 'online-refund:r1' } });
    expect(await provider.createRefund(account.id, input)).toEqual(refund);
    const tooMuch = await provider.createRefund(account.id, { ...input, amount: 7001, idempotency_key: 'k2' }).catch((e) => e);
    expect(tooMuch).toMatchObject({ status: 502, code: 'payments_provider_error' });
    expect(tooMuch.message).toContain('greater than unrefunded amount');
    expect(await provider.createRefund(fake.addAccount().id, { ...input, idempotency_key: 'k3' }).catch((e) => e)).toMatchObject({ status: 404 });
    await fake.flush();
  });
});
