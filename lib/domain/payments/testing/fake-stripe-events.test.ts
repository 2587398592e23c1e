import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION } from '../stripe-provider';
import { type FakeStripe, startFakeStripe } from './fake-stripe';

const SECRET = 'whsec_fake_stripe_events_test';
let fake: FakeStripe;
const received: Array<{ body: string; signature: string }> = [];
let status = 200;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
    res.writeHead(status).end();
  });
});

beforeAll(async () => {
  fake = await startFakeStripe();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('fake Stripe events', () => {
  it('keeps an event without a webhook and answers 0', async () => {
    fake.webhook = null;
    expect(await fake.emit('acct_1', 'account.updated', { id: 'acct_1' })).toBe(0);
    expect(fake.events.at(-1)).toMatchObject({ type: 'account.updated', account: 'acct_1', livemode: false, api_version: STRIPE_API_VERSION });
  });

  it('signs an event with the SDK so that constructEvent accepts it, and answers the HTTP status', async () => {
    fake.webhook = { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, secret: SECRET };
    const object = { id: 'pi_1', object: 'payment_intent', status: 'succeeded' };
    status = 500;
    expect(await fake.emit('acct_2', 'payment_intent.succeeded', object)).toBe(500);
    object.status = 'changed later';
    const { body, signature } = received.at(-1)!;
    const event = Stripe.webhooks.constructEvent(body, signature, SECRET);
    expect(event).toMatchObject({ type: 'payment_intent.succeeded', account: 'acct_2', data: { object: { id: 'pi_1', status: 'succeeded' } } });
    expect(event.id).toMatch(/^evt_/);
    expect(() => Stripe.webhooks.constructEvent(body, signature, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    status = 200;
    expect(await fake.redeliver(fake.events.at(-1)!)).toBe(200);
    expect(JSON.parse(received.at(-1)!.body).id).toBe(event.id);
  });
});
