import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { type CallResult, call } from '@/lib/testing/http';
import { webhookRoutes as r } from './testing';

// A public address literal: registration resolves nothing, and no test sends to it.
const URL_OK = 'https://93.184.215.14/hooks/paraphe';

let org: TestOrg;
let other: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
  token = await org.key();
});

const expectError = (res: CallResult, status: number, code: string, field?: string | null) =>
  expect([res.status, res.body.code, ...(field === undefined ? [] : [res.body.field])], JSON.stringify(res.body)).toEqual([status, code, ...(field === undefined ? [] : [field])]);
const create = (body: unknown, t = token) => call(r.create, 'POST', '/v1/webhooks/endpoints', { token: t, body });
const one = (handler: keyof typeof r, method: string, id: string, suffix = '', options: { body?: unknown; t?: string; params?: Record<string, string> } = {}) =>
  call(r[handler], method, `/v1/webhooks/endpoints/${id}${suffix}`, { token: options.t ?? token, params: { id, ...options.params }, body: options.body });
const jobsOf = async (deliveryId: string) =>
  ((await org.db.execute(sql`select data from pgboss.job where name = 'webhooks.deliver' and data->>'delivery_id' = ${deliveryId}`)) as unknown as { rows: unknown[] }).rows;

describe('POST /v1/webhooks/endpoints', () => {
  it('registers an endpoint: 201 with its whsec_ secret once, enabled by default, events deduplicated', async () => {
    const res = await create({ url: URL_OK, events: ['invoice.paid', 'contact.created', 'invoice.paid'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      url: URL_OK,
      events: ['invoice.paid', 'contact.created'],
      enabled: true,
      disabled_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    const [row] = await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, res.body.id));
    expect(row).toMatchObject({ org_id: org.org.id, secret: res.body.secret, enabled: true });

    const got = await one('get', 'GET', res.body.id);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).toEqual({ ...res.body, secret: undefined });
  });

  it('takes * and enabled false', async () => {
    const res = await create({ url: URL_OK, events: ['*'], enabled: false });
    expect([res.status, res.body.events, res.body.enabled]).toEqual([201, ['*'], false]);
  });

  it.each([
    [{ events: ['invoice.paid'] }, 'url'],
    [{ url: '', events: ['invoice.paid'] }, 'url'],
    [{ url: 'not a url', events: ['invoice.paid'] }, 'url'],
    [{ url: 'http://93.184.215.14/hook', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://user:pw@93.184.215.14/hook', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://127.0.0.1/hook', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://[::1]/hook', events: ['invoice.paid'] }, 'url'],
    // IPv4-compatible IPv6 (::/96): the URL parser writes it [::7f00:1], which ipaddr.js alone calls unicast.
    [{ url: 'https://[::127.0.0.1]/', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://[64:ff9b::10.0.0.1]/', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://10.0.0.8/hook', events: ['invoice.paid'] }, 'url'],
    [{ url: 'https://localhost/hook', events: ['invoice.paid'] }, 'url'],
    [{ url: URL_OK }, 'events'],
    [{ url: URL_OK, events: [] }, 'events'],
    [{ url: URL_OK, events: 'invoice.paid' }, 'events'],
    [{ url: URL_OK, events: ['invoice.paid', 'invoice.exploded'] }, 'events.1'],
    [{ url: URL_OK, events: ['webhook.test'] }, 'events.0'],
    [{ url: URL_OK, events: ['*'], enabled: 'yes' }, 'enabled'],
    [{ url: URL_OK, events: ['*'], secret: 'whsec_mine' }, 'secret'],
  ])('refuses %j: 422 validation_error on %s, nothing stored', async (body, field) => {
    const before = await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id));
    expectError(await create(body), 422, 'validation_error', field);
    expect(await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id))).toHaveLength(before.length);
  });

  it('needs a key (401), and webhooks:write to write, webhooks:read (or write) to read (403)', async () => {
    expectError(await create({ url: URL_OK, events: ['*'] }, ''), 401, 'unauthorized');
    const reader = await org.key(['webhooks:read']);
    const writer = await org.key(['webhooks:write']);
    const stranger = await org.key(['invoice:write']);
    expectError(await create({ url: URL_OK, events: ['*'] }, reader), 403, 'forbidden');
    expectError(await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: stranger }), 403, 'forbidden');
    const made = await create({ url: URL_OK, events: ['*'] }, writer);
    expect(made.status).toBe(201);
    expect((await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: reader })).status).toBe(200);
    expect((await one('get', 'GET', made.body.id, '', { t: writer })).status).toBe(200);
    expectError(await one('update', 'PATCH', made.body.id, '', { t: reader, body: { enabled: false } }), 403, 'forbidden');
    expectError(await one('delete', 'DELETE', made.body.id, '', { t: reader }), 403, 'forbidden');
    expectError(await one('rotate', 'POST', made.body.id, '/rotate-secret', { t: reader }), 403, 'forbidden');
    expectError(await one('test', 'POST', made.body.id, '/test', { t: reader }), 403, 'forbidden');
    expect((await one('deliveries', 'GET', made.body.id, '/deliveries', { t: reader })).status).toBe(200);
  });
});

describe('the other operations', () => {
  it('lists newest first with the pagination helper, only the org’s own, without secrets', async () => {
    const mine = await createTestOrg();
    const t = await mine.key();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ url: URL_OK, events: ['*'] }, t)).body.id);
    const page1 = await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: t, query: { limit: 2 } });
    expect(page1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.data[0]).not.toHaveProperty('secret');
    const page2 = await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: t, query: { limit: 2, cursor: page1.body.meta.next_cursor } });
    expect([page2.body.data.map((e: { id: string }) => e.id), page2.body.meta]).toEqual([[ids[0]], { next_cursor: null }]);
    expectError(await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: t, query: { cursor: 'forged' } }), 422, 'invalid_cursor');
    expectError(await call(r.list, 'GET', '/v1/webhooks/endpoints', { token: t, query: { limit: 0 } }), 422, 'validation_error', 'limit');
  });

  it('answers 404 for another org’s endpoint on every operation, and changes nothing', async () => {
    const theirs = (await create({ url: URL_OK, events: ['*'] }, await other.key())).body;
    const [delivery] = await other.db
      .insert(webhookDeliveries)
      .values({ org_id: other.org.id, endpoint_id: theirs.id, event_id: crypto.randomUUID(), event_type: 'invoice.paid', status: 'failed' })
      .returning();
    expectError(await one('get', 'GET', theirs.id), 404, 'not_found');
    expectError(await one('update', 'PATCH', theirs.id, '', { body: { enabled: false } }), 404, 'not_found');
    expectError(await one('delete', 'DELETE', theirs.id), 404, 'not_found');
    expectError(await one('rotate', 'POST', theirs.id, '/rotate-secret'), 404, 'not_found');
    expectError(await one('test', 'POST', theirs.id, '/test'), 404, 'not_found');
    expectError(await one('deliveries', 'GET', theirs.id, '/deliveries'), 404, 'not_found');
    const path = `/deliveries/${delivery!.id}/redeliver`;
    expectError(await one('redeliver', 'POST', theirs.id, path, { params: { delivery_id: delivery!.id } }), 404, 'not_found');
    // Their delivery under one of our endpoints: still 404.
    const ours = (await create({ url: URL_OK, events: ['*'] })).body;
    expectError(await one('redeliver', 'POST', ours.id, path, { params: { delivery_id: delivery!.id } }), 404, 'not_found');
    const [row] = await other.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, theirs.id));
    expect([row!.enabled, row!.secret]).toEqual([true, theirs.secret]);
    expectError(await one('get', 'GET', 'not-a-uuid'), 404, 'not_found');
  });

  it('PATCH changes url, events and enabled (checking the url again); enabling clears the disabled reason', async () => {
    const ep = (await create({ url: URL_OK, events: ['invoice.paid'] })).body;
    await org.db.update(webhookEndpoints).set({ enabled: false, disabled_reason: 'gone' }).where(eq(webhookEndpoints.id, ep.id));
    const res = await one('update', 'PATCH', ep.id, '', { body: { url: 'https://93.184.215.15/v2', events: ['quote.accepted'], enabled: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://93.184.215.15/v2', events: ['quote.accepted'], enabled: true, disabled_reason: null });
    expect(res.body).not.toHaveProperty('secret');
    expectError(await one('update', 'PATCH', ep.id, '', { body: { url: 'https://192.168.1.10/' } }), 422, 'validation_error', 'url');
    expectError(await one('update', 'PATCH', ep.id, '', { body: { events: [] } }), 422, 'validation_error', 'events');
    expectError(await one('update', 'PATCH', ep.id, '', { body: { secret: 'x' } }), 422, 'validation_error', 'secret');
    expect((await one('get', 'GET', ep.id)).body.url).toBe('https://93.184.215.15/v2');
  });

  it('DELETE answers 204 and removes the endpoint with its deliveries', async () => {
    const ep = (await create({ url: URL_OK, events: ['*'] })).body;
    await one('test', 'POST', ep.id, '/test');
    const res = await one('delete', 'DELETE', ep.id);
    expect([res.status, res.body]).toEqual([204, null]);
    expectError(await one('get', 'GET', ep.id), 404, 'not_found');
    expect(await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, ep.id))).toEqual([]);
  });

  it('rotate-secret returns a new secret once and keeps the old one for 24 h', async () => {
    const ep = (await create({ url: URL_OK, events: ['*'] })).body;
    const res = await one('rotate', 'POST', ep.id, '/rotate-secret');
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(ep.secret);
    const [row] = await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect([row!.secret, row!.previous_secret]).toEqual([res.body.secret, ep.secret]);
    const hours = (row!.previous_secret_expires_at!.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it('test queues a webhook.test delivery and its job; deliveries lists it; redeliver queues it again', async () => {
    const ep = (await create({ url: URL_OK, events: ['invoice.paid'], enabled: false })).body;
    const res = await one('test', 'POST', ep.id, '/test');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ endpoint_id: ep.id, event_type: 'webhook.test', status: 'pending', attempt: 0, response_status: null });
    expect(await jobsOf(res.body.id)).toEqual([{ data: { delivery_id: res.body.id, attempt: 0 } }]);
    const list = await one('deliveries', 'GET', ep.id, '/deliveries');
    expect([list.status, list.body.data.map((d: { id: string }) => d.id), list.body.meta]).toEqual([200, [res.body.id], { next_cursor: null }]);

    await org.db.update(webhookDeliveries).set({ status: 'failed', attempt: 8, response_status: 500 }).where(eq(webhookDeliveries.id, res.body.id));
    const again = await one('redeliver', 'POST', ep.id, `/deliveries/${res.body.id}/redeliver`, { params: { delivery_id: res.body.id } });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: res.body.id, event_id: res.body.event_id, status: 'pending', attempt: 0 });
    expect(await jobsOf(res.body.id)).toHaveLength(2);

    // An attempt in flight: wait for it.
    await org.db.update(webhookDeliveries).set({ locked_until: new Date(Date.now() + 60_000) }).where(eq(webhookDeliveries.id, res.body.id));
    expectError(await one('redeliver', 'POST', ep.id, `/deliveries/${res.body.id}/redeliver`, { params: { delivery_id: res.body.id } }), 409, 'delivery_in_progress');
  });
});
