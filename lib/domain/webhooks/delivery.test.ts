import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { createContact } from '@/lib/domain/contacts';
import { recordEvent, recordEvents } from '@/lib/platform/events';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { attemptDelivery, DETACH_AFTER_MS, type DeliverOptions, deliverBatch, MAX_ATTEMPTS, MAX_IN_FLIGHT_PER_ENDPOINT } from './deliver';
import { createEndpoint, rotateSecret, sendTestEvent } from './endpoints';
import { FAST_LATENCY_MS } from './gate';
import { pruneDeliveries } from './prune';
import { startReceiver, status, verifyStandardWebhook } from './testing';

let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  org = await createTestOrg();
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

// Loopback receivers need the WEBHOOKS_ALLOW_PRIVATE lift; jitter pinned to the schedule itself.
const LOCAL: DeliverOptions = { allowPrivate: true, timeoutMs: 2000, random: () => 0.5 };

async function endpoint(url = receiver.url) {
  return createEndpoint(org.db, org.org.id, { url, events: ['*'], enabled: true }, { allowPrivate: true });
}

/** A contact.created event (the contacts service records it) and this endpoint's delivery of it. */
async function eventFor(endpointId: string) {
  const contact = await createContact(org.db, org.org.id, { type: 'particulier', first_name: 'Zoé', last_name: 'Martin' });
  const [delivery] = await org.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpoint_id, endpointId), eq(webhookDeliveries.event_type, 'contact.created')))
    .orderBy(sql`${webhookDeliveries.id} desc`)
    .limit(1);
  return { contact, delivery: delivery! };
}

const row = async (id: string) => (await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const endpointRow = async (id: string) => (await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
const jobs = async (deliveryId: string) =>
  (
    (await org.db.execute(
      sql`select data, extract(epoch from start_after - created_on)::int as wait from pgboss.job where name = 'webhooks.deliver' and data->>'delivery_id' = ${deliveryId} order by created_on`,
    )) as unknown as { rows: Array<{ data: { attempt: number }; wait: number }> }
  ).rows;

describe('fan-out, in the event’s transaction', () => {
  it('writes one delivery and one job per enabled, subscribed endpoint, and none if the change rolls back', async () => {
    const mine = await createTestOrg();
    const opts = { allowPrivate: true };
    const all = await createEndpoint(mine.db, mine.org.id, { url: receiver.url, events: ['*'], enabled: true }, opts);
    const contacts = await createEndpoint(mine.db, mine.org.id, { url: receiver.url, events: ['contact.created'], enabled: true }, opts);
    const invoices = await createEndpoint(mine.db, mine.org.id, { url: receiver.url, events: ['invoice.paid'], enabled: true }, opts);
    const off = await createEndpoint(mine.db, mine.org.id, { url: receiver.url, events: ['*'], enabled: false }, opts);
    const contact = await createContact(mine.db, mine.org.id, { type: 'particulier', first_name: 'Ana', last_name: 'Roy' });
    const rows = await mine.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.org_id, mine.org.id));
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([all.id, contacts.id].sort());
    expect(rows.every((r) => r.event_type === 'contact.created' && r.status === 'pending' && r.attempt === 0)).toBe(true);
    expect(rows.map((r) => r.endpoint_id)).not.toContain(invoices.id);
    expect(rows.map((r) => r.endpoint_id)).not.toContain(off.id);
    for (const r of rows) expect((await jobs(r.id)).map((j) => j.data)).toEqual([{ delivery_id: r.id, attempt: 0 }]);

    await expect(
      mine.db.transaction(async (tx) => {
        await recordEvent(tx, mine.org.id, 'contact.updated', contact);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await mine.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.event_type, 'contact.updated'))).toEqual([]);
    // Another org's endpoints never receive this org's events.
    expect(await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, all.id))).toHaveLength(1);
  });
  it('a bulk change (an import) fans out in one statement: one delivery and one job per event', async () => {
    const mine = await createTestOrg();
    const ep = await createEndpoint(mine.db, mine.org.id, { url: receiver.url, events: ['contact.created'], enabled: true }, { allowPrivate: true });
    const contact = await createContact(mine.db, mine.org.id, { type: 'particulier', first_name: 'Ana', last_name: 'Roy' });
    await mine.db.transaction((tx) => recordEvents(tx, mine.org.id, 'contact.created', Array.from({ length: 300 }, () => contact)));
    const rows = await mine.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, ep.id));
    expect(rows).toHaveLength(301);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(301);
    const [{ n }] = (
      (await mine.db.execute(
        sql`select count(*)::int as n from pgboss.job j join webhook_deliveries d on d.id = (j.data->>'delivery_id')::uuid where j.name = 'webhooks.deliver' and d.endpoint_id = ${ep.id}`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows as [{ n: number }];
    expect(n).toBe(301);
  });
});

describe('delivery', () => {
  it('500 then 200: retried after 5 s, delivered with the same webhook-id and body, signed per Standard Webhooks', async () => {
    const ep = await endpoint();
    receiver.answer([status(500, 'oops'), status(200, 'thanks')]);
    receiver.received.length = 0;
    const { contact, delivery } = await eventFor(ep.id);

    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('retry');
    const failed = await row(delivery.id);
    expect(failed).toMatchObject({ status: 'pending', attempt: 1, response_status: 500, response_body: 'oops', last_error: null, locked_until: null });
    expect((failed.next_attempt_at!.getTime() - failed.last_attempt_at!.getTime()) / 1000).toBeCloseTo(5, 0);
    expect((await jobs(delivery.id)).map((j) => [j.data.attempt, j.wait])).toEqual([
      [0, 0],
      [1, 5],
    ]);
    expect((await endpointRow(ep.id)).failing_since).not.toBeNull();

    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 1 }, LOCAL)).toBe('succeeded');
    expect(await row(delivery.id)).toMatchObject({ status: 'succeeded', attempt: 2, response_status: 200, response_body: 'thanks', next_attempt_at: null });
    expect((await endpointRow(ep.id)).failing_since).toBeNull();

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(delivery.event_id);
    expect(second!.body).toBe(first!.body);
    const body = JSON.parse(second!.body);
    expect(body).toEqual({ id: delivery.event_id, type: 'contact.created', created_at: expect.stringMatching(/Z$/), data: { object: { ...contact } } });
    expect(second!.headers['content-type']).toBe('application/json');
    for (const r of receiver.received) {
      expect(verifyStandardWebhook(ep.secret, r.headers, r.body)).toBe(true);
      expect(new Webhook(ep.secret).verify(r.body, r.headers as Record<string, string>)).toEqual(body);
    }
    // A job made stale (its attempt is past) does nothing.
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 1 }, LOCAL)).toBe('skipped');
  });

  it('410 disables the endpoint; its other pending deliveries then fail without being sent', async () => {
    const ep = await endpoint();
    receiver.answer([status(410)]);
    const { delivery } = await eventFor(ep.id);
    const { delivery: next } = await eventFor(ep.id);
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('disabled');
    expect(await row(delivery.id)).toMatchObject({ status: 'failed', response_status: 410, next_attempt_at: null });
    expect(await endpointRow(ep.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    expect(await jobs(delivery.id)).toHaveLength(1);

    const count = receiver.received.length;
    expect(await attemptDelivery(org.db, { delivery_id: next.id, attempt: 0 }, LOCAL)).toBe('skipped');
    expect(await row(next.id)).toMatchObject({ status: 'failed', last_error: 'endpoint disabled', attempt: 0 });
    expect(receiver.received).toHaveLength(count);
    // No new event reaches it either.
    await createContact(org.db, org.org.id, { type: 'particulier', first_name: 'Léa', last_name: 'Petit' });
    expect(await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, ep.id))).toHaveLength(2);
  });

  it('a receiver slower than the timeout: the attempt fails (timeout) and is retried', async () => {
    const ep = await endpoint();
    receiver.answer([(_req, res) => setTimeout(() => res.end('late'), 1500)]);
    const { delivery } = await eventFor(ep.id);
    const started = Date.now();
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, { ...LOCAL, timeoutMs: 200 })).toBe('retry');
    expect(Date.now() - started).toBeLessThan(1400);
    expect(await row(delivery.id)).toMatchObject({ status: 'pending', attempt: 1, response_status: null, last_error: 'timeout after 200 ms' });
  });

  it('429 and 5xx honour Retry-After when longer than the schedule; 4xx follows the schedule', async () => {
    const ep = await endpoint();
    const cases: Array<[ReturnType<typeof status>, number]> = [
      [status(429, '', { 'retry-after': '120' }), 120],
      [status(503, '', { 'retry-after': '1' }), 5],
      [status(503, '', { 'retry-after': new Date(Date.now() + 600_000).toUTCString() }), 600],
      [status(400, '', { 'retry-after': '900' }), 5],
    ];
    for (const [answer, wait] of cases) {
      receiver.answer([answer]);
      const { delivery } = await eventFor(ep.id);
      expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('retry');
      expect(Math.abs((await jobs(delivery.id)).at(-1)!.wait - wait)).toBeLessThanOrEqual(1);
    }
  });

  it('does not follow a redirect (a failed attempt), and keeps only the first 1 KB of a response', async () => {
    const other = await startReceiver();
    try {
      const ep = await endpoint();
      receiver.answer([status(302, '', { location: other.url })]);
      const { delivery } = await eventFor(ep.id);
      expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('retry');
      expect((await row(delivery.id)).response_status).toBe(302);
      expect(other.received).toHaveLength(0);

      receiver.answer([status(200, 'é'.repeat(5000))]);
      expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 1 }, LOCAL)).toBe('succeeded');
      const body = (await row(delivery.id)).response_body!;
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024);
      expect(body.length).toBeGreaterThan(400);
    } finally {
      await other.close();
    }
  });

  it('after the last scheduled retry fails, the delivery is failed and nothing more is queued', async () => {
    const ep = await endpoint();
    receiver.answer([status(500)]);
    const { delivery } = await eventFor(ep.id);
    await org.db.update(webhookDeliveries).set({ attempt: MAX_ATTEMPTS - 1 }).where(eq(webhookDeliveries.id, delivery.id));
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: MAX_ATTEMPTS - 1 }, LOCAL)).toBe('failed');
    expect(await row(delivery.id)).toMatchObject({ status: 'failed', attempt: MAX_ATTEMPTS, next_attempt_at: null });
    expect(await jobs(delivery.id)).toHaveLength(1);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('rotation: both secrets sign for 24 h, then only the new one', async () => {
    const ep = await endpoint();
    receiver.answer([status(200)]);
    const rotated = await rotateSecret(org.db, org.org.id, ep.id);
    const { delivery } = await eventFor(ep.id);
    const count = receiver.received.length;
    await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL);
    const during = receiver.received[count]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(ep.secret, during.headers, during.body)).toBe(true);
    expect(verifyStandardWebhook(rotated.secret, during.headers, during.body)).toBe(true);

    const later = new Date(Date.now() + 25 * 3600 * 1000);
    const { delivery: next } = await eventFor(ep.id);
    await attemptDelivery(org.db, { delivery_id: next.id, attempt: 0 }, { ...LOCAL, now: () => later });
    const after = receiver.received[count + 1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(after.headers['webhook-timestamp']).toBe(String(Math.floor(later.getTime() / 1000)));
    expect(verifyStandardWebhook(rotated.secret, after.headers, after.body)).toBe(true);
    expect(verifyStandardWebhook(ep.secret, after.headers, after.body)).toBe(false);
  });

  it('bounds the requests in flight per endpoint: one more is deferred (not counted as an attempt), others go on', async () => {
    // A receiver that holds every request until told to answer.
    const held: Array<() => void> = [];
    const stalled = await startReceiver([(_req, res) => held.push(() => res.end('ok'))]);
    try {
      const ep = await endpoint(stalled.url);
      const deliveries = [];
      for (let i = 0; i <= MAX_IN_FLIGHT_PER_ENDPOINT; i++) deliveries.push((await eventFor(ep.id)).delivery);
      // Held for as long as the test needs them (a loaded machine): no timeout frees a slot.
      const HELD = { ...LOCAL, timeoutMs: 60_000 };
      const inFlight = deliveries.slice(0, MAX_IN_FLIGHT_PER_ENDPOINT).map((d) => attemptDelivery(org.db, { delivery_id: d.id, attempt: 0 }, HELD));
      const deadline = Date.now() + 5000;
      while (stalled.received.length < MAX_IN_FLIGHT_PER_ENDPOINT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stalled.received).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);

      // Its requests have been in flight for longer than a fast receiver takes: the next one does not wait in the
      // worker for a slot, it comes back later as a new job.
      await new Promise((r) => setTimeout(r, FAST_LATENCY_MS + 50));
      const extra = deliveries.at(-1)!;
      expect(await attemptDelivery(org.db, { delivery_id: extra.id, attempt: 0 }, HELD)).toBe('deferred');
      expect(stalled.received).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
      expect(await row(extra.id)).toMatchObject({ status: 'pending', attempt: 0, locked_until: null });
      // It comes back one slot after the requests in flight should end (their age so far), not at once.
      const [first, again] = await jobs(extra.id);
      expect([first?.data.attempt, first?.wait, again?.data.attempt]).toEqual([0, 0, 0]);
      expect(again!.wait).toBeGreaterThanOrEqual(1);
      expect(again!.wait).toBeLessThanOrEqual(10);

      // Another endpoint is not held back by this one.
      const free = await endpoint();
      receiver.answer([status(204)]);
      const { delivery: elsewhere } = await eventFor(free.id);
      expect(await attemptDelivery(org.db, { delivery_id: elsewhere.id, attempt: 0 }, LOCAL)).toBe('succeeded');

      for (const answer of held.splice(0)) answer();
      expect(await Promise.all(inFlight)).toEqual(Array(MAX_IN_FLIGHT_PER_ENDPOINT).fill('succeeded'));
      // Then the deferred one goes.
      const late = attemptDelivery(org.db, { delivery_id: extra.id, attempt: 0 }, LOCAL);
      while (held.length === 0 && Date.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 20));
      for (const answer of held.splice(0)) answer();
      expect(await late).toBe('succeeded');
    } finally {
      await stalled.close();
    }
  });

  it('a batch lets go of a slow attempt after DETACH_AFTER_MS, leaving a job due after its lease; the attempt ends in the background', async () => {
    const held: Array<() => void> = [];
    const stalled = await startReceiver([(_req, res) => held.push(() => res.end('ok'))]);
    try {
      const slow = (await eventFor((await endpoint(stalled.url)).id)).delivery;
      receiver.answer([status(200)]);
      const fast = (await eventFor((await endpoint()).id)).delivery;
      const started = Date.now();
      const outcomes = await deliverBatch(
        org.db,
        [slow, fast].map((d) => ({ delivery_id: d.id, attempt: 0 })),
        LOCAL,
      );
      expect(outcomes).toEqual([null, null]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(DETACH_AFTER_MS - 50);
      const until = async (check: () => Promise<boolean> | boolean) => {
        const deadline = Date.now() + 10_000;
        while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      };
      await until(async () => (await row(fast.id)).status === 'succeeded' && held.length === 1);
      expect(await row(fast.id)).toMatchObject({ status: 'succeeded', attempt: 1 });
      // The slow one is in flight under its lease, and covered by a job due once the lease has ended.
      expect(held).toHaveLength(1);
      expect((await row(slow.id)).locked_until).not.toBeNull();
      expect((await jobs(slow.id)).map((j) => [j.data.attempt, j.wait])).toEqual([
        [0, 0],
        [0, (LOCAL.timeoutMs! + 30_000) / 1000 + 1],
      ]);
      held[0]!();
      await until(async () => (await row(slow.id)).status !== 'pending');
      expect(await row(slow.id)).toMatchObject({ status: 'succeeded', attempt: 1, locked_until: null });
      // That job then finds the attempt made: nothing is sent again.
      expect(await attemptDelivery(org.db, { delivery_id: slow.id, attempt: 0 }, LOCAL)).toBe('skipped');
      expect(stalled.received).toHaveLength(1);
    } finally {
      await stalled.close();
    }
  });

  it('a test event reaches even a disabled endpoint', async () => {
    const ep = await endpoint();
    await org.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, ep.id));
    receiver.answer([status(200)]);
    const test = await sendTestEvent(org.db, org.org.id, ep.id);
    const count = receiver.received.length;
    expect(await attemptDelivery(org.db, { delivery_id: test.id, attempt: 0 }, LOCAL)).toBe('succeeded');
    const got = receiver.received[count]!;
    expect(JSON.parse(got.body)).toMatchObject({ id: test.event_id, type: 'webhook.test', data: { object: { endpoint_id: ep.id } } });
    expect(verifyStandardWebhook(ep.secret, got.headers, got.body)).toBe(true);
  });
});

describe('crash and retention', () => {
  it('a worker that died mid-attempt: its lease defers the retry to its end, then the delivery goes (same webhook-id)', async () => {
    const ep = await endpoint();
    receiver.answer([status(200)]);
    const { delivery } = await eventFor(ep.id);
    // The dead worker's lease, 40 s left.
    await org.db.update(webhookDeliveries).set({ locked_until: new Date(Date.now() + 40_000) }).where(eq(webhookDeliveries.id, delivery.id));
    const count = receiver.received.length;
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('deferred');
    expect(receiver.received).toHaveLength(count);
    const retry = (await jobs(delivery.id)).at(-1)!;
    expect(retry.data.attempt).toBe(0);
    expect(Math.abs(retry.wait - 41)).toBeLessThanOrEqual(1);

    await org.db.update(webhookDeliveries).set({ locked_until: new Date(Date.now() - 1000) }).where(eq(webhookDeliveries.id, delivery.id));
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, LOCAL)).toBe('succeeded');
    expect(receiver.received[count]!.headers['webhook-id']).toBe(delivery.event_id);
    expect(await row(delivery.id)).toMatchObject({ status: 'succeeded', attempt: 1, locked_until: null });
  });

  it('prunes finished deliveries older than the retention, never pending ones', async () => {
    const ep = await endpoint();
    const old = new Date(Date.now() - 31 * 86_400_000);
    const made = [];
    for (const status of ['succeeded', 'failed', 'pending', 'succeeded'] as const) {
      const { delivery } = await eventFor(ep.id);
      made.push(delivery.id);
      await org.db
        .update(webhookDeliveries)
        .set({ status, updated_at: made.length === 4 ? new Date() : old })
        .where(eq(webhookDeliveries.id, delivery.id));
    }
    expect(await pruneDeliveries(org.db, 30)).toBeGreaterThanOrEqual(2);
    const left = await org.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, ep.id));
    expect(left.map((r) => r.id).sort()).toEqual([made[2], made[3]].sort());
  });
});

describe('SSRF at delivery', () => {
  it('refuses a private target at each attempt (without the lift): nothing is sent, the attempt fails', async () => {
    const ep = await endpoint();
    const { delivery } = await eventFor(ep.id);
    const count = receiver.received.length;
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, { ...LOCAL, allowPrivate: false })).toBe('retry');
    expect(receiver.received).toHaveLength(count);
    expect((await row(delivery.id)).last_error).toBe('refused: must be an https URL');
  });

  it('a name that now resolves to a private address is refused; DNS failure fails closed', async () => {
    const ep = await createEndpoint(org.db, org.org.id, { url: 'https://hooks.example.com/x', events: ['*'], enabled: true }, {
      resolve: async () => [{ address: '93.184.215.14', family: 4 }],
    });
    const { delivery } = await eventFor(ep.id);
    const rebound = async () => [{ address: '169.254.169.254', family: 4 as const }];
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, { ...LOCAL, allowPrivate: false, resolve: rebound })).toBe('retry');
    expect((await row(delivery.id)).last_error).toMatch(/^refused: must not resolve to a non-public address \(169\.254\.169\.254, linkLocal\)/);
    const broken = () => Promise.reject(new Error('SERVFAIL'));
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 1 }, { ...LOCAL, allowPrivate: false, resolve: broken })).toBe('retry');
    expect((await row(delivery.id)).last_error).toBe('refused: host name does not resolve');
  });

  it('connects to the address it checked: the name is resolved once, by the check, never again by the socket', async () => {
    const local = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const ep = await createEndpoint(org.db, org.org.id, { url: `http://receiver.test:${receiver.port}/hook`, events: ['*'], enabled: true }, { allowPrivate: true, resolve: local });
    receiver.answer([status(200)]);
    const { delivery } = await eventFor(ep.id);
    const answers = [[{ address: '127.0.0.1', family: 4 as const }], [{ address: '10.9.9.9', family: 4 as const }]];
    let calls = 0;
    const resolve = async () => answers[calls++]!;
    const count = receiver.received.length;
    expect(await attemptDelivery(org.db, { delivery_id: delivery.id, attempt: 0 }, { ...LOCAL, resolve })).toBe('succeeded');
    expect(calls).toBe(1);
    expect(receiver.received[count]!.headers.host).toBe(`receiver.test:${receiver.port}`);
  });
});
