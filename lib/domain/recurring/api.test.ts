import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { eraseContact } from '@/lib/domain/contacts';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { generationsOf, recurringApi, templateBody, templateRow } from './testing';

let org: TestOrg;
let b: Awaited<ReturnType<typeof billingContext>>;
let api: ReturnType<typeof recurringApi>;
let contact: { id: string };
beforeAll(async () => {
  org = await createTestOrg();
  b = await billingContext(org);
  api = recurringApi(b.token);
  contact = await b.contact({ email: 'compta@client.example' });
});

const expect422 = async (body: unknown, field: string) => {
  const res = await api.create(body);
  expect([res.status, res.body.code, res.body.field], JSON.stringify(body)).toEqual([422, 'validation_error', field]);
};

describe('POST /v1/recurring-invoices', () => {
  it('201: the template as the spec shows it, active, with its extensions', async () => {
    const res = await api.create(templateBody(contact.id, { title: ' Maintenance ', notes: 'Merci', items: [line('Abonnement', '2', 5000, '20'), { kind: 'discount', description: 'Remise', unit_price: 1000, vat_rate: '20' }] }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      contact_id: contact.id,
      frequency: 'monthly',
      items: [
        expect.objectContaining({ kind: 'product', description: 'Abonnement', quantity: '2', unit_price: 5000, vat_rate: '20.00', position: 0 }),
        expect.objectContaining({ kind: 'discount', description: 'Remise', quantity: '-1', unit_price: 1000, vat_rate: '20.00', position: 1 }),
      ],
      next_generation_date: '2026-01-31',
      title: 'Maintenance',
      notes: 'Merci',
      operation_nature: 'services',
      auto_send: false,
      auto_collect_sepa: false,
      paused_at: null,
      status: 'active',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      anchor_day: 31,
      total_ht: 9000,
      total_ttc: 10800,
      last_error: null,
      last_error_at: null,
    });
  });

  it('422 with the field: lines, amounts, rates, discounts, frequency, dates, auto_send without a nature, unknown keys', async () => {
    const base = templateBody(contact.id);
    await expect422({ ...base, items: [] }, 'items');
    await expect422({ ...base, items: undefined }, 'items');
    await expect422({ ...base, items: [line('A', '0', 100)] }, 'items.0.quantity');
    await expect422({ ...base, items: [line('A', '-2', 100)] }, 'items.0.quantity');
    // Issue 34: a product line of quantity "-1" is refused (a document's lines read it as a discount; a template's do not).
    await expect422({ ...base, items: [line('A', '-1', 100)] }, 'items.0.quantity');
    await expect422({ ...base, items: [line('A', '2', 1000), line('B', '-1', 100)] }, 'items.1.quantity');
    await expect422({ ...base, items: [line('A', '1', 1000), { ...line('B', '1', 100), quantity: -1 }] }, 'items.1.quantity');
    await expect422({ ...base, items: [line('A', '1', -1)] }, 'items.0.unit_price');
    await expect422({ ...base, items: [line('A', '1', 100, '100.5')] }, 'items.0.vat_rate');
    await expect422({ ...base, items: [line('A', '1', 100, '-1')] }, 'items.0.vat_rate');
    await expect422({ ...base, items: [{ quantity: '1', unit_price: 100, vat_rate: '20' }] }, 'items.0.description');
    // A discount reduces lines of its own rate, and at most their subtotal.
    await expect422({ ...base, items: [line('A', '1', 1000, '20'), { kind: 'discount', description: 'R', unit_price: 100, vat_rate: '10' }] }, 'items.1.vat_rate');
    await expect422({ ...base, items: [line('A', '1', 1000, '20'), { kind: 'discount', description: 'R', unit_price: 1001, vat_rate: '20' }] }, 'items.1.unit_price');
    await expect422({ ...base, frequency: 'weekly' }, 'frequency');
    await expect422({ ...base, next_generation_date: '2026-02-30' }, 'next_generation_date');
    await expect422({ ...base, auto_send: true, operation_nature: null }, 'operation_nature');
    await expect422({ ...base, auto_send: 'yes' }, 'auto_send');
    await expect422({ ...base, org_id: org.org.id }, 'org_id');
  });

  it('422 on contact_id: unknown, another org’s, erased', async () => {
    const other = await createTestOrg();
    const theirs = await (await billingContext(other)).contact();
    await expect422(templateBody('00000000-0000-7000-8000-000000000000'), 'contact_id');
    await expect422(templateBody(theirs.id), 'contact_id');
    const gone = await b.contact({ email: 'gone@client.example' });
    await eraseContact(org.db, org.org.id, gone.id);
    await expect422(templateBody(gone.id), 'contact_id');
  });
});

describe('auth, scopes and isolation', () => {
  it('401 without a key, 403 without the scope (invoice:read cannot write; contacts:read cannot read)', async () => {
    const t = (await api.create(templateBody(contact.id))).body;
    expect((await api.list({}, '')).status).toBe(401);
    expect((await api.get(t.id, 'paraphe_pk_live_00000000000000000000000000000000')).body.code).toBe('unauthorized');
    const reader = await org.key(['invoice:read']);
    expect((await api.get(t.id, reader)).status).toBe(200);
    expect((await api.list({}, reader)).status).toBe(200);
    for (const res of [
      await api.create(templateBody(contact.id), reader),
      await api.patch(t.id, { title: 'x' }, reader),
      await api.remove(t.id, reader),
      await api.pause(t.id, reader),
      await api.activate(t.id, reader),
      await api.run(t.id, reader),
    ]) {
      expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    }
    const stranger = await org.key(['contacts:read']);
    expect((await api.get(t.id, stranger)).status).toBe(403);
    expect((await api.generations(t.id, stranger)).status).toBe(403);
  });

  it("another org's template is 404 on every endpoint, and absent from its list", async () => {
    const t = (await api.create(templateBody(contact.id))).body;
    const other = await createTestOrg();
    const theirs = await other.key();
    for (const res of [
      await api.get(t.id, theirs),
      await api.patch(t.id, { title: 'x' }, theirs),
      await api.remove(t.id, theirs),
      await api.pause(t.id, theirs),
      await api.activate(t.id, theirs),
      await api.run(t.id, theirs),
      await api.generations(t.id, theirs),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    expect((await api.list({}, theirs)).body.data).toEqual([]);
    expect((await templateRow(org, t.id)).title).toBeNull();
  });
});

describe('list, get, patch, delete, pause, activate', () => {
  it('lists newest first, cursor-paginated, filtered by status and contact_id', async () => {
    const o = await createTestOrg();
    const ob = await billingContext(o);
    const oapi = recurringApi(ob.token);
    const c1 = await ob.contact();
    const c2 = await ob.contact();
    const a = (await oapi.create(templateBody(c1.id))).body;
    const c = (await oapi.create(templateBody(c2.id))).body;
    const d = (await oapi.create(templateBody(c1.id))).body;
    await oapi.pause(c.id);
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((t) => t.id);
    expect(ids(await oapi.list())).toEqual([d.id, c.id, a.id]);
    const first = await oapi.list({ limit: '2' });
    expect(ids(first)).toEqual([d.id, c.id]);
    expect(ids(await oapi.list({ limit: '2', cursor: first.body.meta.next_cursor }))).toEqual([a.id]);
    expect(ids(await oapi.list({ status: 'paused' }))).toEqual([c.id]);
    expect(ids(await oapi.list({ status: 'active', contact_id: c1.id }))).toEqual([d.id, a.id]);
    expect((await oapi.list({ status: 'stopped' })).body.field).toBe('status');
    expect((await oapi.list({ cursor: 'forged' })).body.code).toBe('invalid_cursor');
  });

  it('PATCH: omitted unchanged, null clears, a new date resets the anchor day, the result stays valid', async () => {
    const t = (await api.create(templateBody(contact.id, { title: 'T' }))).body;
    expect((await api.patch(t.id, {})).body).toEqual(t);
    const res = await api.patch(t.id, { title: null, frequency: 'quarterly', next_generation_date: '2026-03-15', items: [line('Autre', '3', 1000, '10')] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: null, frequency: 'quarterly', next_generation_date: '2026-03-15', anchor_day: 15, total_ht: 3000, total_ttc: 3300, operation_nature: 'services' });
    const bad = await api.patch(t.id, { operation_nature: null, auto_send: true });
    expect([bad.status, bad.body.field]).toEqual([422, 'operation_nature']);
    expect((await api.patch(t.id, { auto_send: true })).body.auto_send).toBe(true);
    expect((await api.patch(t.id, { operation_nature: null })).body.field).toBe('operation_nature');
    expect((await api.patch(t.id, { items: [] })).body.field).toBe('items');
    // Issue 34: the lines of a PATCH as a creation's, a product line of quantity "-1" refused and nothing changed.
    const minusOne = await api.patch(t.id, { items: [line('Autre', '3', 1000, '10'), line('Remise', '-1', 100, '10')] });
    expect([minusOne.status, minusOne.body.code, minusOne.body.field]).toEqual([422, 'validation_error', 'items.1.quantity']);
    expect((await api.get(t.id)).body.items).toEqual(res.body.items);
    expect((await api.patch(t.id, { contact_id: null })).body.field).toBe('contact_id');
  });

  it('pause and activate: status derived from paused_at, both idempotent', async () => {
    const t = (await api.create(templateBody(contact.id, { next_generation_date: '2099-01-31' }))).body;
    const paused = (await api.pause(t.id)).body;
    expect(paused).toMatchObject({ status: 'paused', paused_at: expect.stringMatching(/Z$/) });
    expect((await api.pause(t.id)).body.paused_at).toBe(paused.paused_at);
    const active = await api.activate(t.id);
    expect([active.status, active.body.status, active.body.paused_at, active.body.next_generation_date]).toEqual([200, 'active', null, '2099-01-31']);
    expect((await api.activate(t.id)).body.status).toBe('active');
  });

  it('run: 201 with the generated draft facture; the date advances; DELETE 204 keeps the invoice', async () => {
    const t = (await api.create(templateBody(contact.id, { next_generation_date: '2099-01-31', title: 'Abonnement janvier' }))).body;
    const res = await api.run(t.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'facture', status: 'draft', contact_id: contact.id, title: 'Abonnement janvier', total_ht: 120000, total_ttc: 144000, operation_nature: 'services' });
    expect(res.body.items).toHaveLength(1);
    expect((await api.get(t.id)).body.next_generation_date).toBe('2099-02-28');
    const history = await api.generations(t.id);
    expect(history.body.data).toEqual([expect.objectContaining({ period_start: '2099-01-31', document_id: res.body.id, status: 'generated', source: 'run' })]);
    const del = await api.remove(t.id);
    expect(del.status).toBe(204);
    expect((await api.get(t.id)).status).toBe(404);
    expect(await generationsOf(org, t.id)).toEqual([]);
    expect((await org.db.select().from(documents).where(eq(documents.id, res.body.id))).length).toBe(1);
    expect((await api.remove(t.id)).status).toBe(404);
  });
});
