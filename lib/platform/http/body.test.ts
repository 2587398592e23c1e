import { count, eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as importContacts } from '@/app/v1/contacts/import/route';
import { POST as createContact } from '@/app/v1/contacts/route';
import { POST as finalize } from '@/app/v1/invoices/[id]/finalize/route';
import { POST as createInvoice } from '@/app/v1/invoices/route';
import { contacts } from '@/db/schema';
import { appBaseUrl, authSecret } from '@/lib/platform/config';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { DEFAULT_BODY_LIMIT } from './body';

let org: TestOrg;
let token: string;
let cookie: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
  const user = await createUser(org.db, { email: `csrf-${org.org.id}@example.fr`, password: 'long enough password' });
  await addMembership(org.db, org.org.id, user.id, 'admin');
  cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, orgId: org.org.id }, secret: authSecret() })}`;
});

const contactCount = async () => (await org.db.select({ n: count() }).from(contacts).where(eq(contacts.org_id, org.org.id)))[0]?.n ?? 0;

/** A body that streams `total` bytes of a JSON string in 64 KiB chunks, counting what the server pulled. */
function streamed(total: number) {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === 0) controller.enqueue(new TextEncoder().encode('{"company":"'));
      if (state.pulled >= total) return controller.close();
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('body size', () => {
  it('answers 413 payload_too_large for a declared body over 1 MiB, before reading it', async () => {
    const big = JSON.stringify({ type: 'particulier', last_name: 'x'.repeat(2 * DEFAULT_BODY_LIMIT) });
    const before = await contactCount();
    for (const handler of [createContact, createInvoice]) {
      const res = await handler(
        new Request('http://localhost/v1/x', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(big.length) },
          body: big,
        }),
        { params: Promise.resolve({}) },
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ code: 'payload_too_large', message: expect.stringContaining('1024 KiB'), field: null });
    }
    expect(await contactCount()).toBe(before);
  });

  it('stops reading a streamed body with no length as soon as it passes the limit', async () => {
    const { body, state } = streamed(20 * DEFAULT_BODY_LIMIT);
    const res = await createContact(
      new Request('http://localhost/v1/contacts', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
    // One chunk past the limit at most was pulled (a stream buffers one ahead), and the rest was never produced.
    expect(state.pulled).toBeLessThanOrEqual(DEFAULT_BODY_LIMIT + 3 * 64 * 1024);
    expect(state.cancelled).toBe(true);
  });

  it('gives the contacts import the room of 1000 full rows, and no more than 5 MiB', async () => {
    const row = { type: 'professionnel', company: 'Société', email: 'a@b.fr', notes: 'n'.repeat(1500) };
    const rows = Array.from({ length: 1000 }, (_, i) => ({ ...row, email: `row-${i}@example.fr` }));
    const fits = await call(importContacts, 'POST', '/v1/contacts/import', { token, body: { contacts: rows } });
    expect(JSON.stringify({ contacts: rows }).length).toBeGreaterThan(DEFAULT_BODY_LIMIT);
    expect(fits.status).toBe(200);
    expect(fits.body.created).toBe(1000);
    const tooBig = await call(importContacts, 'POST', '/v1/contacts/import', {
      token,
      rawBody: JSON.stringify({ contacts: [{ ...row, notes: 'n'.repeat(6 * 1024 * 1024) }] }),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('payload_too_large');
  });
});

describe('body type', () => {
  const json = JSON.stringify({ type: 'particulier', last_name: 'Typé' });

  it('answers 415 unsupported_media_type for a body that is not declared JSON, and writes nothing', async () => {
    const before = await contactCount();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', '']) {
      const res = await call(createContact, 'POST', '/v1/contacts', { token, rawBody: json, headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect(res.body).toEqual({ code: 'unsupported_media_type', message: expect.stringContaining('application/json'), field: null });
    }
    // A body with no type at all.
    const untyped = await createContact(
      new Request('http://localhost/v1/contacts', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-length': String(json.length) }, body: new Blob([json]).stream(), duplex: 'half' } as RequestInit),
      { params: Promise.resolve({}) },
    );
    expect(untyped.status).toBe(415);
    expect(await contactCount()).toBe(before);
  });

  it('takes JSON with a charset or a +json type, and a write with no body needs no type', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      const res = await call(createContact, 'POST', '/v1/contacts', { token, rawBody: json, headers: { 'content-type': type } });
      expect(res.status, type).toBe(201);
    }
    const contact = await call(createContact, 'POST', '/v1/contacts', { token, body: { type: 'particulier', last_name: 'Client' } });
    const draft = await call(createInvoice, 'POST', '/v1/invoices', {
      token,
      body: { type: 'facture', contact_id: contact.body.id, operation_nature: 'services', items: [{ description: 'x', quantity: '1', unit_price: 100, vat_rate: '20' }] },
    });
    const res = await call(finalize, 'POST', `/v1/invoices/${draft.body.id}/finalize`, { token, params: { id: draft.body.id } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('finalized');
  });
});

describe('the back-office session on /v1 (CSRF)', () => {
  const contact = { type: 'particulier', last_name: 'Forgé' };

  it('refuses a write carrying the session cookie from another site, and writes nothing', async () => {
    const before = await contactCount();
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://app.localhost:3000' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:3000' },
    ]) {
      const res = await call(createContact, 'POST', '/v1/contacts', { body: contact, headers: { cookie, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toEqual({ code: 'cross_origin_request', message: expect.any(String), field: null });
    }
    // The reviewer's request: another origin, a text/plain body carrying JSON (no CORS preflight needed).
    const plain = await call(createContact, 'POST', '/v1/contacts', { rawBody: JSON.stringify(contact), headers: { cookie, origin: 'http://evil.example', 'content-type': 'text/plain' } });
    expect(plain.status).toBe(403);
    expect(await contactCount()).toBe(before);
  });

  it("takes a write from the back-office's own origin, or from a client that is not a browser", async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
      { origin: new URL(appBaseUrl()).origin },
      {},
    ]) {
      const res = await call(createContact, 'POST', '/v1/contacts', { body: contact, headers: { cookie, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(201);
    }
  });

  it('leaves reads and API keys alone: an integration calls from anywhere', async () => {
    const read = await call(createContact, 'POST', '/v1/contacts', { token, body: contact, headers: { origin: 'http://integrator.example', 'sec-fetch-site': 'cross-site' } });
    expect(read.status).toBe(201);
  });
});
