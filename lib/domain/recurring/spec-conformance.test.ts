// The recurring part of spec/service-api.md (law) and DESIGN §3 and §9, one assertion per rule, named after the spec's words.
import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { generationsOf, recurringApi, recurringRoutes, templateBody } from './testing';

let org: TestOrg;
let token: string;
let api: ReturnType<typeof recurringApi>;
let contact: { id: string };
let other: { api: ReturnType<typeof recurringApi>; contact: { id: string } };
beforeAll(async () => {
  org = await createTestOrg();
  const b = await billingContext(org);
  token = b.token;
  api = recurringApi(b.token);
  contact = await b.contact({ email: 'spec@client.example' });
  const o = await createTestOrg();
  const ob = await billingContext(o);
  other = { api: recurringApi(ob.token), contact: await ob.contact() };
});

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const YMD = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const make = async (extra: Record<string, unknown> = {}) => {
  const res = await api.create(templateBody(contact.id, { next_generation_date: '2099-01-15', ...extra }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const invalid = (res: { status: number; body: { code: string; field: string | null } }, field: string) =>
  expect([res.status, res.body.code, res.body.field]).toEqual([422, 'validation_error', field]);

describe('Recurring invoice template (response shape)', () => {
  it('id uuid; contact_id uuid; frequency; items JSON array; next_generation_date YYYY-MM-DD; title, notes string or null; created_at, updated_at timestamp', async () => {
    const t = await make();
    expect(t.id).toMatch(UUID);
    expect(t.contact_id).toBe(contact.id);
    expect(t.frequency).toBe('monthly');
    expect(Array.isArray(t.items)).toBe(true);
    expect(t.next_generation_date).toMatch(YMD);
    expect([t.title, t.notes]).toEqual([null, null]);
    expect(t.created_at).toMatch(RFC3339);
    expect(t.updated_at).toMatch(RFC3339);
  });

  it('auto_send: default false; auto_collect_sepa: default false', async () => {
    const t = await make();
    expect([t.auto_send, t.auto_collect_sepa]).toEqual([false, false]);
  });

  it('paused_at: timestamp or null, null when active; status derived from paused_at: active or paused', async () => {
    const t = await make();
    expect([t.paused_at, t.status]).toEqual([null, 'active']);
    const paused = (await api.pause(t.id)).body;
    expect(paused.paused_at).toMatch(RFC3339);
    expect(paused.status).toBe('paused');
    expect((await api.get(t.id)).body).toMatchObject({ status: 'paused', paused_at: paused.paused_at });
    const active = (await api.activate(t.id)).body;
    expect([active.paused_at, active.status]).toEqual([null, 'active']);
  });

  it('operation_nature: biens, services, mixte, or null', async () => {
    for (const nature of ['biens', 'services', 'mixte', null]) expect((await make({ operation_nature: nature })).operation_nature).toBe(nature);
    invalid(await api.create(templateBody(contact.id, { operation_nature: 'autre' })), 'operation_nature');
  });

  it('frequency: monthly, quarterly, yearly', async () => {
    for (const frequency of ['monthly', 'quarterly', 'yearly']) expect((await make({ frequency })).frequency).toBe(frequency);
    invalid(await api.create(templateBody(contact.id, { frequency: 'weekly' })), 'frequency');
  });

  it('title, notes: applied to generated documents', async () => {
    const t = await make({ title: 'Abonnement', notes: 'Merci' });
    const doc = (await api.run(t.id)).body;
    expect([doc.title, doc.notes]).toEqual(['Abonnement', 'Merci']);
  });
});

describe('Template line input', () => {
  it('kind: product default, or discount (which reads back with quantity "-1" and a positive unit_price)', async () => {
    const t = await make({ items: [line('A', '2', 5000), { kind: 'discount', description: 'Remise', unit_price: 1000, vat_rate: '20' }] });
    expect(t.items[0].kind).toBe('product');
    expect(t.items[1]).toMatchObject({ kind: 'discount', quantity: '-1', unit_price: 1000 });
    // The lines as read back go back unchanged: a discount may carry the "-1" it reads back as.
    const again = await api.patch(t.id, { items: t.items });
    expect([again.status, again.body.items]).toEqual([200, t.items]);
  });

  it('position: defaults to array index', async () => {
    const t = await make({ items: [line('A', '1', 100), line('B', '1', 200), line('C', '1', 300)] });
    expect(t.items.map((i: { position: number }) => i.position)).toEqual([0, 1, 2]);
  });

  it('description: string; details: string, optional (null when omitted)', async () => {
    const t = await make({ items: [line('A', '1', 100), line('B', '1', 100, '20', { details: 'Détail' })] });
    expect(t.items.map((i: { description: string; details: string | null }) => [i.description, i.details])).toEqual([
      ['A', null],
      ['B', 'Détail'],
    ]);
    invalid(await api.create(templateBody(contact.id, { items: [{ quantity: '1', unit_price: 100, vat_rate: '20' }] })), 'items.0.description');
  });

  it('quantity: decimal string, strictly positive', async () => {
    const t = await make({ items: [line('A', '1.5', 1000)] });
    expect(t.items[0].quantity).toBe('1.5');
    expect(typeof t.items[0].quantity).toBe('string');
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '0', 100)] })), 'items.0.quantity');
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '-1', 100, '20', { kind: 'product' })] })), 'items.0.quantity');
    // Issue 34: kind omitted (product by default) is no different: "-1" is not a discount on a template.
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '-1', 100)] })), 'items.0.quantity');
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '1', 1000), line('B', '-0.5', 100)] })), 'items.1.quantity');
  });

  it('unit_price: int64 cents, >= 0', async () => {
    expect((await make({ items: [line('Offert', '1', 0)] })).items[0].unit_price).toBe(0);
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '1', -1)] })), 'items.0.unit_price');
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '1', 10.5)] })), 'items.0.unit_price');
  });

  it('vat_rate: percentage string within 0 to 100', async () => {
    const t = await make({ items: [line('A', '1', 100, '0', { vat_category: 'Z' }), line('B', '1', 100, '100')] });
    expect(t.items.map((i: { vat_rate: string }) => i.vat_rate)).toEqual(['0.00', '100.00']);
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '1', 100, '100.01')] })), 'items.0.vat_rate');
    invalid(await api.create(templateBody(contact.id, { items: [line('A', '1', 100, '-0.5')] })), 'items.0.vat_rate');
  });

  it('A discount must match the VAT rate of a line it reduces', async () => {
    const items = [line('A', '1', 1000, '20'), { kind: 'discount', description: 'R', unit_price: 100, vat_rate: '5.5' }];
    invalid(await api.create(templateBody(contact.id, { items })), 'items.1.vat_rate');
  });

  it('and cannot exceed the subtotal at that rate', async () => {
    const at = (unit_price: number) => [line('A', '1', 1000, '20'), line('B', '1', 5000, '10'), { kind: 'discount', description: 'R', unit_price, vat_rate: '20' }];
    expect((await api.create(templateBody(contact.id, { items: at(1000) }))).status).toBe(201);
    invalid(await api.create(templateBody(contact.id, { items: at(1001) })), 'items.2.unit_price');
  });

  it('recurring items: at least one', async () => {
    invalid(await api.create(templateBody(contact.id, { items: [] })), 'items');
  });
});

describe('GET and POST /v1/recurring-invoices (DESIGN §3, §9)', () => {
  it('POST → 201 with the template; auto_send true requires operation_nature', async () => {
    const res = await api.create(templateBody(contact.id));
    expect(res.status).toBe(201);
    invalid(await api.create(templateBody(contact.id, { auto_send: true, operation_nature: undefined })), 'operation_nature');
  });

  it('GET → 200 {data, meta: {next_cursor}}, newest first, limit 1–100 default 50, invalid limit or cursor 422', async () => {
    const o = await createTestOrg();
    const ob = await billingContext(o);
    const oapi = recurringApi(ob.token);
    const c = await ob.contact();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await oapi.create(templateBody(c.id))).body.id);
    const all = await oapi.list();
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'meta']);
    expect(all.body.data.map((t: { id: string }) => t.id)).toEqual([...made].reverse());
    expect(all.body.meta).toEqual({ next_cursor: null });
    const page = await oapi.list({ limit: '1' });
    expect(page.body.data).toHaveLength(1);
    expect(typeof page.body.meta.next_cursor).toBe('string');
    const rest = await oapi.list({ limit: '100', cursor: page.body.meta.next_cursor });
    expect(rest.body.data.map((t: { id: string }) => t.id)).toEqual([made[1], made[0]]);
    for (const limit of ['0', '101']) expect([(await oapi.list({ limit })).status, (await oapi.list({ limit })).body.field]).toEqual([422, 'limit']);
    expect([(await oapi.list({ cursor: 'x' })).status, (await oapi.list({ cursor: 'x' })).body.code]).toEqual([422, 'invalid_cursor']);
  });
});

describe('PATCH /v1/recurring-invoices/{id} (scope invoice:write)', () => {
  it('Body: the same fields as creation → 200 the updated recurring template', async () => {
    const t = await make({ auto_send: true });
    const body = {
      contact_id: contact.id,
      frequency: 'yearly',
      items: [line('Licence', '3', 2500, '10')],
      next_generation_date: '2099-06-30',
      title: 'Licence annuelle',
      notes: 'Note',
      operation_nature: 'biens',
      auto_send: false,
      auto_collect_sepa: true,
    };
    const res = await api.patch(t.id, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...body, items: [expect.objectContaining({ description: 'Licence', quantity: '3', unit_price: 2500, vat_rate: '10.00', position: 0 })] });
    expect((await api.get(t.id)).body).toEqual(res.body);
  });

  it('the same fields as creation: each one accepted alone (partial: omitted fields unchanged), any other key refused', async () => {
    const t = await make({ title: 'Avant', notes: 'N' });
    const each: Record<string, unknown> = {
      contact_id: contact.id,
      frequency: 'quarterly',
      items: [line('Seule', '1', 700)],
      next_generation_date: '2099-02-10',
      title: 'Après',
      notes: 'Notes',
      operation_nature: 'mixte',
      auto_send: true,
      auto_collect_sepa: true,
    };
    for (const [key, value] of Object.entries(each)) {
      const res = await api.patch(t.id, { [key]: value });
      expect([key, res.status], JSON.stringify(res.body)).toEqual([key, 200]);
    }
    const after = (await api.get(t.id)).body;
    expect(after).toMatchObject({ ...each, items: [expect.objectContaining({ description: 'Seule', unit_price: 700, position: 0 })] });
    invalid(await api.patch(t.id, { org_id: org.org.id }), 'org_id');
    invalid(await api.patch(t.id, { status: 'paused' }), 'status');
  });

  it('title, notes, operation_nature: null clears (string or null)', async () => {
    const t = await make({ title: 'T', notes: 'N', operation_nature: 'biens' });
    expect((await api.patch(t.id, { title: null, notes: null, operation_nature: null })).body).toMatchObject({ title: null, notes: null, operation_nature: null });
  });

  it('auto_send: when true operation_nature is required', async () => {
    const t = await make({ operation_nature: null });
    invalid(await api.patch(t.id, { auto_send: true }), 'operation_nature');
    expect((await api.patch(t.id, { auto_send: true, operation_nature: 'mixte' })).body).toMatchObject({ auto_send: true, operation_nature: 'mixte' });
  });

  it('Errors: invalid recurring payload (422 with field)', async () => {
    const t = await make();
    invalid(await api.patch(t.id, { items: [] }), 'items');
    invalid(await api.patch(t.id, { frequency: 'daily' }), 'frequency');
    invalid(await api.patch(t.id, { next_generation_date: '15/01/2099' }), 'next_generation_date');
    invalid(await api.patch(t.id, { items: [line('A', '1', 100, '101')] }), 'items.0.vat_rate');
    invalid(await api.patch(t.id, { contact_id: other.contact.id }), 'contact_id');
  });

  it('Errors: not found or cross-org (404 not_found)', async () => {
    const t = await make();
    const res = await other.api.patch(t.id, { title: 'x' });
    expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    expect((await api.patch('00000000-0000-7000-8000-000000000000', { title: 'x' })).status).toBe(404);
  });

  it('scope invoice:write (403 forbidden with invoice:read)', async () => {
    const t = await make();
    const res = await api.patch(t.id, { title: 'x' }, await org.key(['invoice:read']));
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
  });
});

describe('GET and DELETE /v1/recurring-invoices/{id}; POST activate, pause, run (DESIGN §3, §9)', () => {
  it('GET → 200 the template; another org’s → 404', async () => {
    const t = await make();
    expect((await api.get(t.id)).body).toEqual(t);
    expect((await other.api.get(t.id)).status).toBe(404);
  });

  it('DELETE → 204 with no body, generated invoices stay; another org’s → 404', async () => {
    const t = await make();
    const doc = (await api.run(t.id)).body;
    expect((await other.api.remove(t.id)).status).toBe(404);
    const res = await api.remove(t.id);
    expect([res.status, res.body]).toEqual([204, null]);
    expect((await api.get(t.id)).status).toBe(404);
    expect(doc.id).toMatch(UUID);
  });

  it('activate, pause → 200 template; another org’s → 404', async () => {
    const t = await make();
    expect((await api.pause(t.id)).status).toBe(200);
    expect((await api.activate(t.id)).status).toBe(200);
    expect((await other.api.pause(t.id)).status).toBe(404);
    expect((await other.api.activate(t.id)).status).toBe(404);
  });

  it('run → 201 with the generated billing document (a draft facture in cents); another org’s → 404', async () => {
    const t = await make({ items: [line('A', '2', 1050, '20')] });
    const res = await api.run(t.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'facture', status: 'draft', total_ht: 2100, total_tva: 420, total_ttc: 2520, transmission_status: expect.any(String) });
    expect((await other.api.run(t.id)).status).toBe(404);
  });
});

describe('Conventions (DESIGN §3): Idempotency-Key on POST, errors {code, message, field}, X-Request-Id', () => {
  it('a POST replayed with the same Idempotency-Key and body returns the first response; another body is 422 idempotency_key_reused', async () => {
    const headers = { 'idempotency-key': `spec-create-${Date.now()}` };
    const body = templateBody(contact.id, { next_generation_date: '2099-03-31' });
    const first = await call(recurringRoutes.create, 'POST', '/v1/recurring-invoices', { token, body, headers });
    const again = await call(recurringRoutes.create, 'POST', '/v1/recurring-invoices', { token, body, headers });
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);
    const reused = await call(recurringRoutes.create, 'POST', '/v1/recurring-invoices', { token, body: { ...body, title: 'autre' }, headers });
    expect([reused.status, reused.body.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('run replayed with the same Idempotency-Key generates once', async () => {
    const t = await make();
    const headers = { 'idempotency-key': `spec-run-${t.id}` };
    const opts = { token, params: { id: t.id }, headers };
    const first = await call(recurringRoutes.run, 'POST', `/v1/recurring-invoices/${t.id}/run`, opts);
    const again = await call(recurringRoutes.run, 'POST', `/v1/recurring-invoices/${t.id}/run`, opts);
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);
    expect(await generationsOf(org, t.id)).toHaveLength(1);
  });

  it('an error body is {code, message, field}; every response carries X-Request-Id', async () => {
    const res = await api.create(templateBody(contact.id, { items: [] }));
    expect(Object.keys(res.body).sort()).toEqual(['code', 'field', 'message']);
    expect(typeof res.body.message).toBe('string');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect((await api.list()).headers.get('x-request-id')).toBeTruthy();
  });
});
