import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { captureLogs } from '@/lib/platform/log';
import { GET as getEvent } from '@/app/v1/events/[id]/route';
import { GET as listEvents } from '@/app/v1/events/route';
import { GET as unknownPath } from '@/app/v1/[[...path]]/route';
import { events } from '@/db/schema';
import { createApiKey, revokeApiKey } from '@/lib/platform/auth';
import { writeTestEvent } from '@/lib/platform/events/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { IdParams } from '@/lib/platform/contract';
import { created, ok, route } from './handler';

let a: TestOrg;
let b: TestOrg;
beforeAll(async () => {
  a = await createTestOrg();
  b = await createTestOrg();
});

describe('authentication', () => {
  it('answers 401 unauthorized for a missing key', async () => {
    const res = await call(listEvents, 'GET', '/v1/events');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), field: null });
  });

  it('answers 401 for malformed, unknown and wrong-secret keys', async () => {
    const real = await a.key();
    const tampered = `${real.slice(0, -1)}${real.endsWith('a') ? 'b' : 'a'}`;
    for (const token of ['nope', 'paraphe_pk_live_short', `paraphe_pk_live_${'x'.repeat(32)}`, tampered, real.replace('_live_', '_test_')]) {
      const res = await call(listEvents, 'GET', '/v1/events', { token });
      expect(res.status, token).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
    const basic = await call(listEvents, 'GET', '/v1/events', { headers: { authorization: `Basic ${real}` } });
    expect(basic.status).toBe(401);
  });

  it('answers 401 once a key is revoked, at once in the revoking process', async () => {
    const { key, apiKey } = await createApiKey(a.db, a.org.id, { name: 'short-lived', scopes: ['events:read'] });
    expect((await call(listEvents, 'GET', '/v1/events', { token: key })).status).toBe(200);
    await revokeApiKey(a.db, a.org.id, apiKey.id);
    const res = await call(listEvents, 'GET', '/v1/events', { token: key });
    expect(res.status).toBe(401);
  });

  it('answers 403 forbidden when the key lacks the scope', async () => {
    const res = await call(listEvents, 'GET', '/v1/events', { token: await a.key(['contacts:read']) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('carries an X-Request-Id on every answer, errors included', async () => {
    const ok = await call(listEvents, 'GET', '/v1/events', { token: await a.key() });
    const ko = await call(listEvents, 'GET', '/v1/events');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ko.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('ratelimit-limit')).toBe('1000');
  });
});

describe('org isolation', () => {
  it("answers 404 for another org's resource, exactly like a missing one", async () => {
    const event = await writeTestEvent(b.db, b.org.id, 'test.isolated', { secret: 'b' });
    const own = await call(getEvent, 'GET', `/v1/events/${event.id}`, { token: await b.key(), params: { id: event.id } });
    expect(own.status).toBe(200);
    expect(own.body.data.object).toEqual({ secret: 'b' });

    const cross = await call(getEvent, 'GET', `/v1/events/${event.id}`, { token: await a.key(), params: { id: event.id } });
    const missing = await call(getEvent, 'GET', '/v1/events/x', { token: await a.key(), params: { id: '01900000-0000-7000-8000-000000000000' } });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ code: 'not_found', message: missing.body.message, field: null });
    const list = await call(listEvents, 'GET', '/v1/events', { token: await a.key(), query: { type: 'test.isolated' } });
    expect(list.body.data).toEqual([]);
  });

  it('reads a path id in any case as the same id, in lower case (the form domain code compares)', async () => {
    const echoId = route({ scope: 'events:read', params: IdParams }, async ({ params }) => ok({ id: params.id }));
    const id = '0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B';
    const res = await call(echoId, 'GET', `/v1/echo/${id}`, { token: await a.key(), params: { id } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id.toLowerCase());
  });

  it('answers 404 for a malformed id', async () => {
    const res = await call(getEvent, 'GET', '/v1/events/abc', { token: await a.key(), params: { id: 'abc' } });
    expect(res.status).toBe(404);
  });

  it('answers unknown /v1 paths with the JSON 404', async () => {
    const res = await call(unknownPath, 'GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('validation', () => {
  it('names the offending query field on 422', async () => {
    const res = await call(listEvents, 'GET', '/v1/events', { token: await a.key(), query: { limit: 0 } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'limit' });
  });

  const echo = route(
    { scope: 'events:read', body: z.object({ items: z.array(z.object({ vat_rate: z.string().regex(/^\d+(\.\d+)?$/) })) }) },
    async ({ body }) => created(body),
  );

  it('gives the dotted path of a nested body field', async () => {
    const res = await call(echo, 'POST', '/v1/echo', { token: await a.key(), body: { items: [{ vat_rate: '20' }, { vat_rate: 'x' }] } });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe('items.1.vat_rate');
  });

  it('answers 400 invalid_json for an unparseable body', async () => {
    const res = await call(echo, 'POST', '/v1/echo', { token: await a.key(), rawBody: '{"items": [' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_json', message: expect.any(String), field: null });
  });

  it('answers 500 with the request id and no stack on an unexpected error', async () => {
    const boom = route({ scope: 'events:read' }, async () => {
      throw new Error('secret internals at /srv/app.ts:12');
    });
    const res = await call(boom, 'GET', '/v1/boom', { token: await a.key() });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal_error');
    expect(res.body.message).toContain(res.headers.get('x-request-id'));
    expect(JSON.stringify(res.body)).not.toContain('secret internals');
  });
});

describe('database integrity refusals', () => {
  it('answers 409 document_finalized, not 500, when an immutability trigger refuses the write', async () => {
    await a.db.execute(sql`CREATE OR REPLACE FUNCTION test_handler_immutable() RETURNS void LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'billing document x is finalized'; END $$`);
    const refused = route({ scope: 'events:read' }, async ({ db }) => {
      await db.execute(sql`SELECT test_handler_immutable()`);
      return created({});
    });
    const res = await call(refused, 'POST', '/v1/x', { token: await a.key() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'document_finalized', message: 'billing document x is finalized', field: null });
  });

  it('keeps any other raised exception a 500, logged at error with the request id, the org and the cause, never the key', async () => {
    const failing = route({ scope: 'events:read' }, async ({ db }) => {
      await db.execute(sql`DO $$ BEGIN RAISE EXCEPTION 'something else broke'; END $$`);
      return created({});
    });
    const token = await a.key();
    const { result: res, lines } = await captureLogs(() => call(failing, 'POST', '/v1/x', { token }));
    expect(res.status).toBe(500);
    expect(res.body.message).toContain(res.headers.get('x-request-id'));
    const error = lines.find((l) => l.msg === 'unexpected error');
    expect(error).toMatchObject({ level: 'error', request_id: res.headers.get('x-request-id'), org_id: a.org.id });
    expect(JSON.stringify(error)).toContain('something else broke');
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});

describe('Idempotency-Key', () => {
  const createEvent = route({ scope: 'events:read', body: z.object({ type: z.string() }) }, async ({ db, orgId, body }) =>
    created(await writeTestEvent(db, orgId, body.type, {})),
  );
  const countOf = async (type: string, orgId = a.org.id) =>
    (await a.db.select().from(events).where(and(eq(events.org_id, orgId), eq(events.type, type)))).length;

  it('replays the first response without a second write', async () => {
    const token = await a.key();
    const headers = { 'idempotency-key': 'key-1' };
    const first = await call(createEvent, 'POST', '/v1/x', { token, body: { type: 'idem.once' }, headers });
    const second = await call(createEvent, 'POST', '/v1/x', { token, body: { type: 'idem.once' }, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await countOf('idem.once')).toBe(1);
  });

  it('refuses the same key with another body (422 idempotency_key_reused)', async () => {
    const token = await a.key();
    const headers = { 'idempotency-key': 'key-2' };
    await call(createEvent, 'POST', '/v1/x', { token, body: { type: 'idem.first' }, headers });
    const res = await call(createEvent, 'POST', '/v1/x', { token, body: { type: 'idem.other' }, headers });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await countOf('idem.other')).toBe(0);
  });

  it('keeps keys apart between API keys and orgs', async () => {
    const headers = { 'idempotency-key': 'shared' };
    await call(createEvent, 'POST', '/v1/x', { token: await a.key(), body: { type: 'idem.shared' }, headers });
    await call(createEvent, 'POST', '/v1/x', { token: await b.key(), body: { type: 'idem.shared' }, headers });
    expect([await countOf('idem.shared'), await countOf('idem.shared', b.org.id)]).toEqual([1, 1]);
  });
});

describe('pagination', () => {
  it('returns every row exactly once across pages while rows are inserted', async () => {
    const org = await createTestOrg();
    const token = await org.key();
    const before: string[] = [];
    for (let i = 0; i < 23; i++) before.push((await writeTestEvent(org.db, org.org.id, 'page.row', { i })).id);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await call(listEvents, 'GET', '/v1/events', { token, query: { limit: 5, cursor } });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { id: string }) => e.id));
      cursor = res.body.meta.next_cursor ?? undefined;
      // Newer rows arrive mid-way: they belong before the first page and must not shift the rest.
      await writeTestEvent(org.db, org.org.id, 'page.row', { late: pages++ });
    } while (cursor);

    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...before].reverse());
  });

  it('refuses a forged cursor with 422 invalid_cursor', async () => {
    const token = await a.key();
    for (const cursor of ['garbage', Buffer.alloc(28).toString('base64url')]) {
      const res = await call(listEvents, 'GET', '/v1/events', { token, query: { cursor } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_cursor', field: 'cursor' });
    }
  });
});
