import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { billingContext, docsOf, line, routes } from './testing';

/** Spec-conformance cases found in review: each failed before its fix (docs/billing.md). */
let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

describe('PUT /v1/invoice/settings', () => {
  const put = (options: { body?: unknown }) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, ...options });

  it('takes a request without a body as the empty payload: every field back to its default', async () => {
    expect((await put({ body: { devis_prefix: 'Q', recovery_fee: 5000, iban: 'FR7630006000011234567890189' } })).status).toBe(200);
    const res = await put({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ devis_prefix: 'DEV', recovery_fee: 4000, default_validity_days: 30, iban: null, default_vat_exigibility: 'debits' });
  });

  it('accepts the GET representation back (org_id, created_at, updated_at are read-only and ignored)', async () => {
    const current = (await call(routes.getSettings, 'GET', '/v1/invoice/settings', { token })).body;
    const res = await put({ body: { ...current, footer_mentions: 'Mentions', org_id: '01900000-0000-7000-8000-000000000000' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ org_id: org.org.id, footer_mentions: 'Mentions', created_at: current.created_at });
    expect(res.body.updated_at).not.toBe('2000-01-01T00:00:00.000Z');
    // Any other unknown key is still refused, naming it.
    expect((await put({ body: { ...current, reminder_days: [1] } })).body).toMatchObject({ code: 'validation_error', field: 'reminder_days' });
  });
});

describe('PATCH /v1/products/{id}', () => {
  it('takes a request without a body as the empty patch: nothing changes', async () => {
    const p = (await call(routes.createProduct, 'POST', '/v1/products', { token, body: { name: 'P', description: 'D', unit: 'jour', unit_price_cents: 100 } })).body;
    const res = await call(routes.patchProduct, 'PATCH', `/v1/products/${p.id}`, { token, params: { id: p.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(p);
  });
});

describe('POST /v1/invoices/{id}/convert-to-facture with an Idempotency-Key', () => {
  it('never replays a dry run as the real conversion (the query is part of the request)', async () => {
    const b = await billingContext(org);
    const c = await b.contact();
    const quote = await b.issued({ type: 'devis', contact_id: c.id, items: [line('A', '1', 10000)] });
    const convert = (query: Record<string, string>) =>
      call(routes.convert, 'POST', `/v1/invoices/${quote.id}/convert-to-facture`, { token, params: { id: quote.id }, query, headers: { 'idempotency-key': `conv-${quote.id}` } });
    const before = (await docsOf(org)).length;
    expect((await convert({ dry_run: 'true' })).status).toBe(200);
    const real = await convert({});
    expect(real.status).toBe(422);
    expect(real.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await docsOf(org)).length).toBe(before);
    // The same dry run with the same key is still a replay.
    const again = await convert({ dry_run: 'true' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
