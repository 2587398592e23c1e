import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Db, Tx } from '@/db/client';
import { paymentAccounts, providerEvents } from '@/db/schema';
import { stripeSettings } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { onMandateUpdated, onSetupIntentSucceeded, onSetupSessionCompleted } from './mandates';
import { onAccountUpdated, onCheckoutSession, onDispute, onPaymentIntent, onRefund, onRefundObject } from './online-payment-events';
import type { PaymentProvider } from './provider';
import { requireProvider } from './stripe-provider';
import { log } from '@/lib/platform/log';

/**
 * Provider events at POST /api/stripe/webhook (DESIGN §8): the Connect endpoint's events, signature checked with
 * the SDK on the raw body, handled once per event id, on the org that owns the event's connected account.
 */

export interface ProviderEventContext {
  tx: Tx;
  orgId: string;
  /** The connected account the event came from (acct_…). */
  accountId: string;
  event: Stripe.Event;
  /** When the event happened at the provider (event.created). */
  at: Date;
  /** The provider, for a handler whose event lacks what it needs (most do not call it). */
  provider: () => PaymentProvider;
}

export type Handler = (ctx: ProviderEventContext) => Promise<void>;

/**
 * What each event type does. checkout.session.* events of a setup-mode session (a SEPA mandate) are looked up
 * under `<type>:setup` (mandates are lib/domain/payments/mandates.ts's). A type not listed is acknowledged and ignored.
 */
export const HANDLERS: Record<string, Handler> = {
  'checkout.session.completed': onCheckoutSession,
  'checkout.session.async_payment_succeeded': onCheckoutSession,
  'checkout.session.async_payment_failed': onCheckoutSession,
  'checkout.session.expired': onCheckoutSession,
  'payment_intent.succeeded': onPaymentIntent,
  'payment_intent.processing': onPaymentIntent,
  'payment_intent.payment_failed': onPaymentIntent,
  'payment_intent.canceled': onPaymentIntent,
  'charge.refunded': onRefund,
  'refund.created': onRefundObject,
  'refund.updated': onRefundObject,
  'refund.failed': onRefundObject,
  'charge.dispute.created': onDispute,
  'charge.dispute.updated': onDispute,
  'charge.dispute.closed': onDispute,
  'account.updated': onAccountUpdated,
  'setup_intent.succeeded': onSetupIntentSucceeded,
  'checkout.session.completed:setup': onSetupSessionCompleted,
  'mandate.updated': onMandateUpdated,
};

/** The HANDLERS key of an event: setup-mode Checkout sessions have their own. */
export function handlerKey(event: Stripe.Event): string {
  const object = event.data.object as { object?: string; mode?: string };
  return object.object === 'checkout.session' && object.mode === 'setup' ? `${event.type}:setup` : event.type;
}

export interface ProviderEventOutcome {
  received: true;
  /** This event id was handled before: acknowledged, nothing changed. */
  duplicate: boolean;
  /** false when nothing was done: an account no org connected, or a type Paraphe does not use. */
  handled: boolean;
}

/** Accounts whose events were ignored, logged once per process. */
const unknownAccounts = new Set<string>();

function verify(rawBody: string, signature: string | null): Stripe.Event {
  const secret = stripeSettings()?.webhookSecret;
  if (!secret) {
    throw new ApiError(503, 'payments_disabled', 'Online payment is not configured on this instance (STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is not set).');
  }
  if (!signature) throw new ApiError(400, 'invalid_signature', 'The Stripe-Signature header is missing: only the provider may post events here.');
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new ApiError(400, 'invalid_signature', 'The Stripe-Signature header does not verify (wrong secret, altered body or too old).');
    }
    throw new ApiError(400, 'invalid_json', 'The event is not valid JSON.');
  }
}

/**
 * Verifies and handles one event. The event id is written to provider_events in the same transaction as its
 * effects: a handler that fails rolls both back (500, the provider retries); a replay finds the id and changes
 * nothing.
 */
export async function handleStripeWebhook(db: Db, rawBody: string, signature: string | null): Promise<ProviderEventOutcome> {
  const event = verify(rawBody, signature);
  const accountId = event.account ?? null;
  return db.transaction(async (tx) => {
    const [owner] = accountId ? await tx.select({ org_id: paymentAccounts.org_id }).from(paymentAccounts).where(eq(paymentAccounts.account_id, accountId)) : [];
    const orgId = owner?.org_id ?? null;
    const [fresh] = await tx
      .insert(providerEvents)
      .values({ event_id: event.id, type: event.type, account_id: accountId, org_id: orgId })
      .onConflictDoNothing()
      .returning({ event_id: providerEvents.event_id });
    if (!fresh) return { received: true, duplicate: true, handled: false };
    if (!accountId || !orgId) {
      // The platform's own events, or an account no org has (any more): nothing of ours to change.
      const key = accountId ?? 'platform';
      if (!unknownAccounts.has(key)) {
        unknownAccounts.add(key);
        log.warn(`provider events of ${accountId ? `account ${accountId}, connected to no organisation,` : 'the platform account'} are ignored (first: ${event.type} ${event.id})`);
      }
      return { received: true, duplicate: false, handled: false };
    }
    const handler = HANDLERS[handlerKey(event)];
    if (!handler) return { received: true, duplicate: false, handled: false };
    await handler({ tx, orgId, accountId, event, at: new Date(event.created * 1000), provider: requireProvider });
    return { received: true, duplicate: false, handled: true };
  });
}
