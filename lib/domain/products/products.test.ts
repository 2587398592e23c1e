import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { billingContext, routes } from '@/lib/domain/documents/testing';

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

describe('products', () => {
  const create = (body: unknown) => call(routes.createProduct, 'POST', '/v1/products', { token, body });
  const patch = (id: string, body: unknown) => call(routes.patchProduct, 'PATCH', `/v1/products/${id}`, { token, params: { id }, body });
  const get = (id: string) => call(routes.getProduct, 'GET', `/v1/products/${id}`, { token, params: { id } });

  it('creates a product with its rate normalized to two decimals', async () => {
    const res = await create({ name: '  Heure de dev ', unit: 'heure', unit_price_cents: 9000, vat_rate: '5.5' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Heure de dev',
      description: null,
      unit: 'heure',
      unit_price_cents: 9000,
      vat_rate: '5.50',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect((await create({ name: 'Défaut', unit_price_cents: 1 })).body.vat_rate).toBe('20.00');
    expect(await get(res.body.id)).toMatchObject({ status: 200, body: res.body });
  });

  it('PATCH: omitted unchanged, null clears description or unit, other keys cannot be null', async () => {
    const p = (await create({ name: 'P', description: 'D', unit: 'jour', unit_price_cents: 100, vat_rate: '20' })).body;
    expect((await patch(p.id, {})).body).toEqual(p);
    const res = await patch(p.id, { description: null, vat_rate: 10 });
    expect(res.body).toMatchObject({ name: 'P', description: null, unit: 'jour', unit_price_cents: 100, vat_rate: '10.00' });
    expect((await patch(p.id, { unit: null, name: ' Q ' })).body).toMatchObject({ unit: null, name: 'Q', description: null });
    for (const [body, field] of [
      [{ name: null }, 'name'],
      [{ name: '  ' }, 'name'],
      [{ unit_price_cents: null }, 'unit_price_cents'],
      [{ unit_price_cents: -1 }, 'unit_price_cents'],
      [{ vat_rate: null }, 'vat_rate'],
      [{ vat_rate: '20.001' }, 'vat_rate'],
      [{ id: 'x' }, 'id'],
    ] as const) {
      const r = await patch(p.id, body);
      expect([r.status, r.body.field], JSON.stringify(body)).toEqual([422, field]);
    }
  });

  it('lists newest first with q, and deletes', async () => {
    const o = await createTestOrg();
    const t = await o.key();
    const mk = async (name: string) => (await call(routes.createProduct, 'POST', '/v1/products', { token: t, body: { name, unit_price_cents: 1 } })).body;
    const a = await mk('Audit sécurité');
    const b = await mk('Formation');
    const list = (query: Record<string, string>) => call(routes.listProducts, 'GET', '/v1/products', { token: t, query });
    expect((await list({})).body.data.map((p: { id: string }) => p.id)).toEqual([b.id, a.id]);
    expect((await list({ q: 'AUDIT' })).body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const del = await call(routes.deleteProduct, 'DELETE', `/v1/products/${a.id}`, { token: t, params: { id: a.id } });
    expect(del.status).toBe(204);
    expect((await call(routes.getProduct, 'GET', `/v1/products/${a.id}`, { token: t, params: { id: a.id } })).status).toBe(404);
    expect((await call(routes.deleteProduct, 'DELETE', `/v1/products/${a.id}`, { token: t, params: { id: a.id } })).status).toBe(404);
  });

  it('leaves document lines untouched when their product changes or goes', async () => {
    const b = await billingContext(org);
    const c = await b.contact();
    const p = (await create({ name: 'Kit', unit_price_cents: 5000, vat_rate: '20' })).body;
    const doc = await b.issued({ type: 'facture', contact_id: c.id, items: [{ product_id: p.id, quantity: '2' }] });
    await patch(p.id, { unit_price_cents: 9999 });
    await call(routes.deleteProduct, 'DELETE', `/v1/products/${p.id}`, { token, params: { id: p.id } });
    expect((await b.get(doc.id)).body.items[0]).toMatchObject({ product_id: p.id, unit_price: 5000, total_ht: 10000 });
    expect((await get(p.id)).status).toBe(404);
    expect((await b.duplicate(doc.id)).body.items[0]).toMatchObject({ product_id: p.id, unit_price: 5000 });
  });
});
