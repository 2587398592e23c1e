import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as webhookRoute from '@/app/api/stripe/webhook/route';
import type { FakeStripe } from './fake-stripe';

export const TEST_WEBHOOK_SECRET = 'whsec_paraphe_provider_events_test';

/**
 * Points the fake's event delivery at the real POST /api/stripe/webhook handler through a local HTTP server (the
 * fake POSTs over HTTP as Stripe does; the handler gets a real Request with the raw body), and sets
 * STRIPE_WEBHOOK_SECRET. Returns the cleanup.
 */
export async function useStripeWebhook(fake: FakeStripe, secret = TEST_WEBHOOK_SECRET): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const request = new Request(`http://localhost:3000${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) });
      webhookRoute
        .POST(request)
        .then(async (response) => res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text()))
        .catch((err) => res.writeHead(599).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const saved = process.env.STRIPE_WEBHOOK_SECRET;
  process.env.STRIPE_WEBHOOK_SECRET = secret;
  fake.webhook = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/stripe/webhook`, secret };
  return async () => {
    fake.webhook = null;
    if (saved === undefined) delete process.env.STRIPE_WEBHOOK_SECRET;
    else process.env.STRIPE_WEBHOOK_SECRET = saved;
    await new Promise((resolve) => server.close(resolve));
  };
}
