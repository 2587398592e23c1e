import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { createContact } from '@/lib/domain/contacts';
import { startWorkers, stopQueue } from '@/lib/platform/jobs';
import { createTestOrg } from '@/lib/testing/fixtures';
import { deliverWebhookJob } from './deliver';
import { createEndpoint } from './endpoints';
import { startReceiver, verifyStandardWebhook } from './testing';

// The worker reads the lift from the environment, as in a local development run (this file's process only).
beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
});
afterAll(async () => {
  await stopQueue();
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
});

/** A loopback port with nothing listening on it (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

it('through the real job queue: receiver down, then up → every event delivered once, with its own webhook-id', async () => {
  const { db, org } = await createTestOrg();
  const port = await freePort();
  const endpoint = await createEndpoint(db, org.id, { url: `http://127.0.0.1:${port}/hook`, events: ['contact.created'], enabled: true });
  await startWorkers([deliverWebhookJob as never]);
  for (const first_name of ['Ana', 'Léo', 'Zoé']) await createContact(db, org.id, { type: 'particulier', first_name, last_name: 'Martin' });
  const rows = () => db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpoint.id));

  // Down: each first attempt fails (connection refused) and is rescheduled 5 s later. Each row is noted once seen so:
  // on PostgreSQL the other test files' deliveries share the queue, and the three may not be seen so at one poll.
  const refused = new Set<string>();
  expect(
    await waitFor(async () => {
      for (const r of await rows()) if (r.attempt >= 1 && r.status === 'pending' && r.last_error?.includes('ECONNREFUSED')) refused.add(r.id);
      return refused.size === 3;
    }, 30_000),
  ).toBe(true);

  const receiver = await startReceiver(undefined, port);
  try {
    expect(await waitFor(async () => (await rows()).every((r) => r.status === 'succeeded'), 30_000)).toBe(true);
    const delivered = await rows();
    expect(delivered.map((r) => r.attempt)).toEqual([2, 2, 2]);
    // Each event once, under its own id, signed.
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(delivered.map((r) => r.event_id).sort());
    for (const r of receiver.received) expect(verifyStandardWebhook(endpoint.secret, r.headers, r.body)).toBe(true);
    expect(receiver.received.map((r) => JSON.parse(r.body).data.object.first_name).sort()).toEqual(['Ana', 'Léo', 'Zoé']);
  } finally {
    await receiver.close();
  }
}, 90_000);
