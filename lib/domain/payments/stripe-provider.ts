import Stripe from 'stripe';
import { type StripeSettings, stripeSettings } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import type {
  AccountInput,
  AccountReadiness,
  CapabilityStatus,
  CheckoutInput,
  CheckoutSession,
  MandateInfo,
  OffSessionDebitInput,
  PaymentIntentInfo,
  PaymentMethodInfo,
  PaymentProvider,
  RefundCreateInput,
  RefundInfo,
  SetupIntentInfo,
} from './provider';

/** The API version every call is made with (the SDK 23 default, pinned so an SDK upgrade changes nothing silently). */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** The SDK client of these settings: api.stripe.com, or STRIPE_API_BASE's host, port and protocol. */
export function stripeClient(settings: StripeSettings): Stripe {
  return new Stripe(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: settings.apiBase ? 0 : 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Paraphe' },
    ...(settings.apiBase ?? {}),
  });
}

function capability(value: string | undefined): CapabilityStatus {
  return value === 'active' || value === 'inactive' || value === 'pending' ? value : 'unrequested';
}

export function toReadiness(account: Stripe.Account): AccountReadiness {
  return {
    account_id: account.id,
    charges_enabled: account.charges_enabled ?? false,
    details_submitted: account.details_submitted ?? false,
    card_payments: capability(account.capabilities?.card_payments),
    sepa_debit_payments: capability(account.capabilities?.sepa_debit_payments),
    requirements_due: [...new Set([...(account.requirements?.past_due ?? []), ...(account.requirements?.currently_due ?? [])])].sort(),
  };
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

const REFUND_STATUSES = ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'] as const;

/** A Stripe refund as the port states it (its events carry the same object). */
export function toRefundInfo(r: Stripe.Refund): RefundInfo {
  const status = REFUND_STATUSES.find((s) => s === r.status) ?? 'pending';
  return {
    id: r.id,
    status,
    amount: r.amount,
    payment_intent_id: idOf(r.payment_intent),
    failure_reason: r.failure_reason ?? null,
    metadata: { ...(r.metadata ?? {}) },
  };
}

function toSession(s: Stripe.Checkout.Session): CheckoutSession {
  return {
    id: s.id,
    mode: s.mode === 'setup' ? 'setup' : 'payment',
    url: s.url ?? null,
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    payment_status: s.payment_status === 'paid' ? 'paid' : s.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
    amount_total: s.amount_total ?? null,
    payment_intent_id: idOf(s.payment_intent),
    setup_intent_id: idOf(s.setup_intent),
    customer_id: idOf(s.customer),
    metadata: { ...(s.metadata ?? {}) },
  };
}

/** The provider's refusals as our errors: an unknown account is a 404, anything else the provider's fault (502). */
function providerError(err: unknown): never {
  if (err instanceof Stripe.errors.StripeError) {
    if (err.code === 'resource_missing' || err.type === 'StripePermissionError' || err.statusCode === 404) {
      throw new ApiError(404, 'payments_account_not_found', `The payment provider does not know this account or object: ${err.message}`);
    }
    throw new ApiError(502, 'payments_provider_error', `The payment provider refused the request: ${err.message}`);
  }
  throw err;
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  constructor(private readonly stripe: Stripe) {}

  async retrieveAccount(accountId: string): Promise<AccountReadiness> {
    return toReadiness(await this.stripe.accounts.retrieve(accountId).catch(providerError));
  }

  async createAccount(input: AccountInput): Promise<AccountReadiness> {
    // A standard account: the org owns its Stripe dashboard and is the merchant of record (DESIGN §8, direct charges).
    const account = await this.stripe.accounts
      .create(
        {
          type: 'standard',
          country: 'FR',
          default_currency: 'eur',
          email: input.email ?? undefined,
          business_profile: input.business_name ? { name: input.business_name } : undefined,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotency_key },
      )
      .catch(providerError);
    return toReadiness(account);
  }

  async createAccountLink(accountId: string, urls: { refresh_url: string; return_url: string }) {
    const link = await this.stripe.accountLinks.create({ account: accountId, type: 'account_onboarding', ...urls }).catch(providerError);
    return { url: link.url, expires_at: new Date(link.expires_at * 1000) };
  }

  async createCustomer(accountId: string, input: Parameters<PaymentProvider['createCustomer']>[1]) {
    const customer = await this.stripe.customers
      .create(
        { email: input.email ?? undefined, name: input.name ?? undefined, metadata: input.metadata },
        { stripeAccount: accountId, idempotencyKey: input.idempotency_key },
      )
      .catch(providerError);
    return { id: customer.id };
  }

  async createCheckoutSession(accountId: string, input: CheckoutInput): Promise<CheckoutSession> {
    // SDK 23 has no payment_method_types: allowed_payment_method_types filters the account's enabled methods.
    const common = {
      allowed_payment_method_types: input.methods,
      success_url: input.success_url,
      cancel_url: input.cancel_url,
      metadata: input.metadata,
    };
    const params: Stripe.Checkout.SessionCreateParams =
      input.mode === 'payment'
        ? {
            ...common,
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency: 'eur', unit_amount: input.amount, product_data: { name: input.description } } }],
            payment_intent_data: { metadata: input.metadata },
            ...(input.customer_id ? { customer: input.customer_id } : input.customer_email ? { customer_email: input.customer_email } : {}),
          }
        : { ...common, mode: 'setup', currency: 'eur', customer: input.customer_id, setup_intent_data: { metadata: input.metadata } };
    const session = await this.stripe.checkout.sessions.create(params, { stripeAccount: accountId, idempotencyKey: input.idempotency_key }).catch(providerError);
    return toSession(session);
  }

  async retrieveCheckoutSession(accountId: string, sessionId: string): Promise<CheckoutSession> {
    return toSession(await this.stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId }).catch(providerError));
  }

  async retrieveSetupIntent(accountId: string, setupIntentId: string): Promise<SetupIntentInfo> {
    const si = await this.stripe.setupIntents.retrieve(setupIntentId, {}, { stripeAccount: accountId }).catch(providerError);
    return {
      id: si.id,
      status: si.status,
      customer_id: idOf(si.customer),
      payment_method_id: idOf(si.payment_method),
      mandate_id: idOf(si.mandate),
      metadata: { ...(si.metadata ?? {}) },
    };
  }

  async retrievePaymentMethod(accountId: string, paymentMethodId: string): Promise<PaymentMethodInfo> {
    const pm = await this.stripe.paymentMethods.retrieve(paymentMethodId, {}, { stripeAccount: accountId }).catch(providerError);
    return { id: pm.id, type: pm.type, customer_id: idOf(pm.customer), sepa_last4: pm.sepa_debit?.last4 ?? null };
  }

  async retrieveMandate(accountId: string, mandateId: string): Promise<MandateInfo> {
    const m = await this.stripe.mandates.retrieve(mandateId, {}, { stripeAccount: accountId }).catch(providerError);
    const status: MandateInfo['status'] = m.status === 'active' ? 'active' : m.status === 'pending' ? 'pending' : 'inactive';
    return { id: m.id, status, payment_method_id: idOf(m.payment_method) };
  }

  async detachPaymentMethod(accountId: string, paymentMethodId: string): Promise<boolean> {
    try {
      await this.stripe.paymentMethods.detach(paymentMethodId, {}, { stripeAccount: accountId });
      return true;
    } catch (err) {
      // Already gone (deleted, or detached before): what a revocation wants.
      if (err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing')) return false;
      // Stripe refuses to detach a method no longer attached (400, no code): detached already, e.g. by the payer's bank.
      if (err instanceof Stripe.errors.StripeInvalidRequestError) {
        const pm = await this.stripe.paymentMethods.retrieve(paymentMethodId, {}, { stripeAccount: accountId }).catch(() => null);
        if (pm && pm.customer === null) return false;
      }
      return providerError(err);
    }
  }

  async createOffSessionDebit(accountId: string, input: OffSessionDebitInput): Promise<PaymentIntentInfo> {
    // SDK 23 has no payment_method_types here either: allowed_payment_method_types keeps the debit to SEPA.
    const pi = await this.stripe.paymentIntents
      .create(
        {
          amount: input.amount,
          currency: 'eur',
          allowed_payment_method_types: ['sepa_debit'],
          customer: input.customer_id,
          payment_method: input.payment_method_id,
          ...(input.mandate_id ? { mandate: input.mandate_id } : {}),
          confirm: true,
          off_session: true,
          description: input.description,
          metadata: input.metadata,
        },
        { stripeAccount: accountId, idempotencyKey: input.idempotency_key },
      )
      .catch(providerError);
    return { id: pi.id, status: pi.status, amount: pi.amount, failure_message: pi.last_payment_error?.message ?? null };
  }

  async createRefund(accountId: string, input: RefundCreateInput): Promise<RefundInfo> {
    const refund = await this.stripe.refunds
      .create(
        { payment_intent: input.payment_intent_id, amount: input.amount, reason: 'requested_by_customer', metadata: input.metadata },
        { stripeAccount: accountId, idempotencyKey: input.idempotency_key },
      )
      .catch(providerError);
    return toRefundInfo(refund);
  }
}

const cache = new Map<string, PaymentProvider>();

/** The provider of this instance's configuration, or null when online payment is off (no STRIPE_SECRET_KEY). */
export function paymentProvider(env: Record<string, string | undefined> = process.env): PaymentProvider | null {
  const settings = stripeSettings(env);
  if (!settings) return null;
  const key = JSON.stringify([settings.secretKey, settings.apiBase]);
  let provider = cache.get(key);
  if (!provider) {
    provider = new StripeProvider(stripeClient(settings));
    cache.set(key, provider);
  }
  return provider;
}

/** The provider, or 503 payments_disabled: the first check of every online-payment endpoint. */
export function requireProvider(): PaymentProvider {
  const provider = paymentProvider();
  if (!provider) throw new ApiError(503, 'payments_disabled', 'Online payment is not configured on this instance (STRIPE_SECRET_KEY is not set).');
  return provider;
}
