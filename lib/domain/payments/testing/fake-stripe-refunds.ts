import type { FakeStripe } from './fake-stripe';
import { type FakeRoute, type Json, newId, now, StripeFailure } from './fake-stripe-shared';

/*
 * Refunds on the fake as Stripe makes them (API 2024-10-28 and later): POST /v1/refunds on a connected account's
 * payment intent, `refund.created` then `charge.refunded` (the charge's amount_refunded counts a pending refund,
 * and gives it back if the refund fails), then `refund.updated` when it settles, with `refund.failed` on a failure.
 * A refund asked through the API starts pending; `settleRefund` (or `refundAutoSettleMs`, for the e2e process)
 * plays the card network's answer. A dashboard refund (`refund`) succeeds at once.
 */

export interface FakeRefunds {
  /** A refund made in the dashboard: `amount` cents (the whole rest when omitted), succeeded at once. */
  refund(paymentIntentId: string, amount?: number): Promise<{ refund: string; statuses: number[] }>;
  /** The pending refund's outcome: refund.updated (and refund.failed), the charge's amount_refunded given back on a failure. */
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed'): Promise<number[]>;
  /** When set, a refund asked through the API settles as succeeded that many ms after its creation. */
  refundAutoSettleMs: number | null;
  /** Waits for the events the API calls sent in the background (Stripe delivers them after its answer). */
  flush(): Promise<number[]>;
}

export function fakeRefunds(fake: FakeStripe): { helpers: FakeRefunds; route: FakeRoute } {
  let background: Promise<number>[] = [];
  const later = (work: () => Promise<number[]>) => {
    const p = new Promise<void>((resolve) => setImmediate(resolve)).then(work);
    background.push(p.then((s) => s.at(-1) ?? 0));
    return p;
  };
  const found = (id: string, what: string) => {
    const f = fake.objects.get(id);
    if (!f) throw new Error(`fake Stripe: no ${what} ${id}`);
    return f as { account: string; object: Json };
  };

  /** Makes the refund on the charge of a succeeded payment intent, or Stripe's refusal. */
  function make(account: string, pi: Json, amount: number | undefined, status: 'pending' | 'succeeded', metadata: Json): { refund: Json; charge: Json } {
    if (pi.status !== 'succeeded' || !pi.latest_charge) {
      throw new StripeFailure(400, 'invalid_request_error', `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, 'charge_not_refundable', 'payment_intent');
    }
    const charge = found(String(pi.latest_charge), 'charge').object;
    const rest = Number(charge.amount) - Number(charge.amount_refunded);
    if (rest <= 0) throw new StripeFailure(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, 'charge_already_refunded');
    const value = amount ?? rest;
    if (!Number.isInteger(value) || value <= 0) throw new StripeFailure(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer', 'amount');
    if (value > rest) {
      const euros = (c: number) => `€${(c / 100).toFixed(2)}`;
      throw new StripeFailure(400, 'invalid_request_error', `Refund amount (${euros(value)}) is greater than unrefunded amount on charge (${euros(rest)})`, 'amount_too_large', 'amount');
    }
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount: value,
      currency: 'eur',
      charge: charge.id,
      payment_intent: pi.id,
      status,
      reason: 'requested_by_customer',
      failure_reason: null,
      metadata,
      created: now(),
    };
    fake.objects.set(refund.id, { account, object: refund });
    (charge.refunds as { data: Json[] }).data.unshift(refund);
    charge.amount_refunded = Number(charge.amount_refunded) + value;
    charge.refunded = charge.amount_refunded === charge.amount;
    return { refund, charge };
  }

  const announce = async (account: string, refund: Json, charge: Json) => [await fake.emit(account, 'refund.created', refund), await fake.emit(account, 'charge.refunded', charge)];

  async function settleRefund(refundId: string, outcome: 'succeeded' | 'failed') {
    const { account, object: refund } = found(refundId, 'refund');
    if (refund.status !== 'pending') throw new Error(`fake Stripe: refund ${refundId} is ${refund.status}`);
    refund.status = outcome;
    if (outcome === 'failed') {
      refund.failure_reason = 'expired_or_canceled_card';
      const charge = found(String(refund.charge), 'charge').object;
      charge.amount_refunded = Number(charge.amount_refunded) - Number(refund.amount);
      charge.refunded = false;
      return [await fake.emit(account, 'refund.updated', refund), await fake.emit(account, 'refund.failed', refund)];
    }
    return [await fake.emit(account, 'refund.updated', refund)];
  }

  const refunds: FakeRefunds = {
    refundAutoSettleMs: null,
    async refund(paymentIntentId, amount) {
      const { account, object: pi } = found(paymentIntentId, 'payment intent');
      const { refund, charge } = make(account, pi, amount, 'succeeded', {});
      return { refund: String(refund.id), statuses: await announce(account, refund, charge) };
    },
    settleRefund,
    async flush() {
      const all: number[] = [];
      while (background.length) {
        const batch = background;
        background = [];
        all.push(...(await Promise.all(batch)));
      }
      return all;
    },
  };

  /** POST /v1/refunds {payment_intent, amount?, metadata?, reason?} on a connected account. */
  const route: FakeRoute = ({ method, path, account, body }) => {
    if (method !== 'POST' || path !== '/v1/refunds') return undefined;
    if (!account) throw new StripeFailure(400, 'invalid_request_error', 'Paraphe refunds on connected accounts only (Stripe-Account header).');
    if (!body.payment_intent && !body.charge) throw new StripeFailure(400, 'invalid_request_error', 'One of the following params should be provided for this request: payment_intent or charge.', 'parameter_missing');
    let pi: Json;
    if (body.payment_intent) pi = fake.own(String(body.payment_intent), account, 'payment_intent');
    else {
      const charge = fake.own(String(body.charge), account, 'charge');
      pi = fake.own(String(charge.payment_intent), account, 'payment_intent');
    }
    const { refund, charge } = make(account, pi, body.amount === undefined ? undefined : Number(body.amount), 'pending', (body.metadata as Json | undefined) ?? {});
    const answer = structuredClone(refund);
    void later(async () => {
      const statuses = await announce(account, refund, charge);
      const delay = fake.refundAutoSettleMs;
      if (delay !== null) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (refund.status === 'pending') statuses.push(...(await settleRefund(String(refund.id), 'succeeded')));
      }
      return statuses;
    });
    return [200, answer];
  };
  return { helpers: refunds, route };
}

