import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../stripe-provider';
import { type FakeEvent, type Json, newId, now } from './fake-stripe-shared';

export interface FakeWebhook {
  url: string;
  secret: string;
}

/**
 * Builds the event Stripe would send for a connected account's object, keeps it in `events`, signs it with the
 * SDK's own test signer and POSTs it to the webhook: the HTTP status, or 0 when no webhook is set.
 */
export async function deliverEvent(webhook: FakeWebhook | null, events: FakeEvent[], account: string | null, type: string, object: Json): Promise<number> {
  const event: FakeEvent = {
    id: newId('evt'),
    object: 'event',
    type,
    account,
    api_version: STRIPE_API_VERSION,
    created: now(),
    // A snapshot of the object as it was when the event happened, not a live reference.
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
  events.push(event);
  return webhook ? postEvent(webhook, event) : 0;
}

/** (Re)delivers an event as Stripe does: the JSON body and its `Stripe-Signature` header. */
export async function postEvent(webhook: FakeWebhook, event: FakeEvent): Promise<number> {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
  const res = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature }, body: payload });
  await res.arrayBuffer();
  return res.status;
}
