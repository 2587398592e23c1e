import type { FakeStripe } from './fake-stripe';
import { type FakeRoute, type Json, missing, newId, now, sessionIntentData } from './fake-stripe-shared';

/*
 * Money on the fake: payment intents, charges, refunds and disputes on a connected account, and the helpers that
 * play what the payer, the bank and Stripe do, each emitting the events Stripe would, in Stripe's order. Charges
 * carry their `refunds` list (newest first); refunds are fake-stripe-refunds.ts's.
 */

export type FakeMethod = 'card' | 'sepa_debit';
export type CheckoutOutcome = 'paid' | 'processing' | 'failed';

export interface FakePayments {
  /** The payer completes a payment-mode session: a card paid (or declined), a SEPA debit submitted (processing). */
  completeCheckout(sessionId: string, options?: { method?: FakeMethod; outcome?: CheckoutOutcome }): Promise<{ payment_intent: string; statuses: number[] }>;
  /** The bank settles (or returns) a SEPA debit that was processing. */
  settleSepa(paymentIntentId: string, outcome: 'succeeded' | 'failed'): Promise<number[]>;
  /** The session lapses unpaid. */
  expireCheckout(sessionId: string): Promise<number[]>;
  /** The payer's bank opens a dispute on the charge: charge.dispute.created (status needs_response). */
  dispute(paymentIntentId: string): Promise<{ dispute: string; statuses: number[] }>;
  /** The dispute is decided: charge.dispute.closed. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Promise<number[]>;
  /** A payment intent on an account (SEPA off-session debits use it too); its charge is made when it settles. */
  createPaymentIntent(account: string, input: { amount: number; method: FakeMethod; metadata?: Json; customer?: string | null }): Json;
}

const FAILURES: Record<FakeMethod, { code: string; message: string }> = {
  card: { code: 'card_declined', message: 'Your card was declined.' },
  sepa_debit: { code: 'insufficient_funds', message: 'The account has insufficient funds to cover this payment.' },
};

export function fakePayments(fake: FakeStripe): FakePayments {
  const find = (id: string, what: string) => {
    const found = fake.objects.get(id);
    if (!found) throw new Error(`fake Stripe: no ${what} ${id}`);
    return found as { account: string; object: Json };
  };
  const put = (account: string, object: Json) => {
    fake.objects.set(String(object.id), { account, object });
    return object;
  };

  function createPaymentIntent(account: string, input: { amount: number; method: FakeMethod; metadata?: Json; customer?: string | null }): Json {
    return put(account, {
      id: newId('pi'),
      object: 'payment_intent',
      amount: input.amount,
      amount_received: 0,
      currency: 'eur',
      status: 'requires_payment_method',
      payment_method_types: [input.method],
      payment_method: null,
      customer: input.customer ?? null,
      latest_charge: null,
      last_payment_error: null,
      metadata: input.metadata ?? {},
      created: now(),
      livemode: false,
    });
  }

  /** The charge of a payment intent, made on its first attempt. */
  function chargeOf(account: string, pi: Json): Json {
    if (pi.latest_charge) return find(String(pi.latest_charge), 'charge').object;
    const method = (pi.payment_method_types as FakeMethod[])[0] ?? 'card';
    const pm = put(account, { id: newId('pm'), object: 'payment_method', type: method, customer: pi.customer ?? null, ...(method === 'sepa_debit' ? { sepa_debit: { last4: '3000', country: 'FR' } } : { card: { brand: 'visa', last4: '4242' } }) });
    const charge = put(account, {
      id: newId(method === 'card' ? 'ch' : 'py'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: 0,
      amount_refunded: 0,
      refunded: false,
      disputed: false,
      currency: 'eur',
      status: 'pending',
      paid: false,
      payment_intent: pi.id,
      payment_method: pm.id,
      payment_method_details: { type: method },
      failure_code: null,
      failure_message: null,
      metadata: pi.metadata,
      refunds: { object: 'list', data: [], has_more: false },
      created: now(),
    });
    Object.assign(pi, { latest_charge: charge.id, payment_method: pm.id });
    return charge;
  }

  const succeed = (account: string, pi: Json) => {
    const charge = chargeOf(account, pi);
    Object.assign(charge, { status: 'succeeded', paid: true, amount_captured: charge.amount });
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, last_payment_error: null });
  };
  const fail = (account: string, pi: Json) => {
    const charge = chargeOf(account, pi);
    const method = (pi.payment_method_types as FakeMethod[])[0] ?? 'card';
    const { code, message } = FAILURES[method];
    Object.assign(charge, { status: 'failed', failure_code: code, failure_message: message });
    Object.assign(pi, { status: 'requires_payment_method', last_payment_error: { type: 'card_error', code, message, charge: charge.id } });
  };

  async function completeCheckout(sessionId: string, options: { method?: FakeMethod; outcome?: CheckoutOutcome } = {}) {
    const { account, object: session } = find(sessionId, 'checkout session');
    if (session.mode !== 'payment' || session.status !== 'open') throw new Error(`fake Stripe: session ${sessionId} is not an open payment session`);
    const allowed = (session.allowed_payment_method_types as FakeMethod[] | null) ?? ['card', 'sepa_debit'];
    const method = options.method ?? allowed[0]!;
    if (!allowed.includes(method)) throw new Error(`fake Stripe: session ${sessionId} does not allow ${method}`);
    const outcome = options.outcome ?? (method === 'card' ? 'paid' : 'processing');
    const intentData = sessionIntentData.get(session) ?? {};
    const pi = session.payment_intent
      ? find(String(session.payment_intent), 'payment intent').object
      : createPaymentIntent(account, { amount: Number(session.amount_total), method, metadata: (intentData.metadata as Json) ?? {}, customer: session.customer as string | null });
    pi.payment_method_types = [method];
    session.payment_intent = pi.id;
    const statuses: number[] = [];
    const emit = async (type: string, object: Json) => statuses.push(await fake.emit(account, type, object));
    if (outcome === 'failed') {
      // A declined payer stays on the open session and may try again.
      fail(account, pi);
      await emit('payment_intent.payment_failed', pi);
    } else if (outcome === 'processing') {
      chargeOf(account, pi);
      pi.status = 'processing';
      Object.assign(session, { status: 'complete', payment_status: 'unpaid', url: null });
      await emit('payment_intent.processing', pi);
      await emit('checkout.session.completed', session);
    } else {
      succeed(account, pi);
      Object.assign(session, { status: 'complete', payment_status: 'paid', url: null });
      await emit('payment_intent.succeeded', pi);
      await emit('checkout.session.completed', session);
    }
    return { payment_intent: String(pi.id), statuses };
  }

  /** The session of a payment intent, when Checkout made it. */
  const sessionOf = (piId: string) => [...fake.objects.values()].find((o) => o.object.object === 'checkout.session' && o.object.payment_intent === piId)?.object;

  async function settleSepa(paymentIntentId: string, outcome: 'succeeded' | 'failed') {
    const { account, object: pi } = find(paymentIntentId, 'payment intent');
    if (pi.status !== 'processing') throw new Error(`fake Stripe: ${paymentIntentId} is not processing`);
    const session = sessionOf(paymentIntentId);
    const statuses: number[] = [];
    if (outcome === 'succeeded') {
      succeed(account, pi);
      statuses.push(await fake.emit(account, 'payment_intent.succeeded', pi));
      if (session) {
        session.payment_status = 'paid';
        statuses.push(await fake.emit(account, 'checkout.session.async_payment_succeeded', session));
      }
    } else {
      fail(account, pi);
      statuses.push(await fake.emit(account, 'payment_intent.payment_failed', pi));
      if (session) statuses.push(await fake.emit(account, 'checkout.session.async_payment_failed', session));
    }
    return statuses;
  }

  async function expireCheckout(sessionId: string) {
    const { account, object: session } = find(sessionId, 'checkout session');
    Object.assign(session, { status: 'expired', url: null });
    return [await fake.emit(account, 'checkout.session.expired', session)];
  }

  async function dispute(paymentIntentId: string) {
    const { account, object: pi } = find(paymentIntentId, 'payment intent');
    const charge = chargeOf(account, pi);
    charge.disputed = true;
    const made = put(account, {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: 'eur',
      charge: charge.id,
      payment_intent: pi.id,
      reason: 'fraudulent',
      status: 'needs_response',
      created: now(),
    });
    return { dispute: String(made.id), statuses: [await fake.emit(account, 'charge.dispute.created', made)] };
  }

  async function closeDispute(disputeId: string, status: 'won' | 'lost') {
    const { account, object: made } = find(disputeId, 'dispute');
    made.status = status;
    return [await fake.emit(account, 'charge.dispute.closed', made)];
  }

  return { completeCheckout, settleSepa, expireCheckout, dispute, closeDispute, createPaymentIntent };
}

/** GET of the payment intents, charges and refunds the fake holds (what the SDK may retrieve). */
export function paymentRoutes(fake: FakeStripe): FakeRoute {
  const kinds: Record<string, string> = { payment_intents: 'payment_intent', charges: 'charge', refunds: 'refund', disputes: 'dispute' };
  return ({ method, path, account }) => {
    const m = /^\/v1\/(payment_intents|charges|refunds|disputes)\/([^/]+)$/.exec(path);
    if (method !== 'GET' || !m) return undefined;
    const found = fake.objects.get(m[2]!);
    if (!found || found.account !== account || found.object.object !== kinds[m[1]!]) throw missing(kinds[m[1]!]!, m[2]!);
    return [200, found.object];
  };
}
