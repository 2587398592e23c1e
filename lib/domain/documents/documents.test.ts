import { beforeAll, describe, expect, it } from 'vitest';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, eventsOf, line, routes } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  client = await api.contact();
});

describe('POST /v1/invoices', () => {
  it('creates a draft quote with every field of the spec, totals to the cent (EN 16931)', async () => {
    const res = await api.create({
      type: 'devis',
      contact_id: client.id,
      title: 'Rénovation',
      items: [
        line('Pose', '3', 1250, '20', { unit: 'hur' }),
        line('Peinture', '2.5', 899, '5.5'),
        line('Étude', '1', 10000, '10'),
        { kind: 'discount', description: 'Remise fidélité', unit_price: 750, vat_rate: '20' },
      ],
    });
    expect(res.status).toBe(201);
    const today = todayParis();
    expect(res.body).toEqual({
      id: expect.any(String),
      type: 'devis',
      status: 'draft',
      contact_id: client.id,
      contact_name: 'Client SARL',
      client_snapshot: null,
      seller_snapshot: null,
      number: null,
      issue_date: today,
      due_date: null,
      service_date: null,
      validity_date: addDays(today, 30),
      title: 'Rénovation',
      description: null,
      notes: null,
      items: [
        expect.objectContaining({ position: 0, kind: 'product', quantity: '3', unit: 'HUR', unit_price: 1250, vat_rate: '20.00', vat_category: 'S', total_ht: 3750, total_ttc: 4500 }),
        expect.objectContaining({ position: 1, quantity: '2.5', vat_rate: '5.50', total_ht: 2248, total_ttc: 2372 }),
        expect.objectContaining({ position: 2, vat_rate: '10.00', total_ht: 10000, total_ttc: 11000 }),
        expect.objectContaining({ position: 3, kind: 'discount', quantity: '-1', unit_price: 750, total_ht: -750, total_ttc: -900 }),
      ],
      // 20 %: 37.50 − 7.50 = 30.00 → 6.00; 10 %: 100.00 → 10.00; 5.5 %: 22.48 → 1.2364 → 1.24
      total_ht: 15248,
      total_tva: 1724,
      total_ttc: 16972,
      finalized_at: null,
      content_hash: null,
      prev_hash: null,
      chain_index: null,
      converted_from_id: null,
      parent_devis_id: null,
      avoir_for_id: null,
      acompte_percentage: null,
      deposit_request_percentage: null,
      credit_reason_code: null,
      credit_reason_text: null,
      delivery_address: null,
      discount_terms: null,
      payment_terms: null,
      payment_method: null,
      execution_timeline: null,
      operation_nature: 'services', // the fixture's default (lib/domain/documents/testing.ts)
      vat_exigibility: 'debits',
      payment_plan_kind: 'none',
      payment_plan_config: null,
      render_status: 'pending',
      transmission_status: 'not_required',
      transmission_id: null,
      lifecycle_status: null,
      lifecycle_reason: null,
      lifecycle_at: null,
      sent_at: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.items.every((it: { id: string; details: null; product_id: null }) => it.id && it.details === null && it.product_id === null)).toBe(true);
    const [event] = await eventsOf(org, 'invoice.created');
    expect(event?.payload).toEqual({ object: res.body });
    // Made from the lines as written and the contact as read in the creation: what a read gives afterwards.
    expect((await api.get(res.body.id)).body).toEqual(res.body);
  });

  it("defaults an invoice's terms from the contact, else the settings, and its due date from the terms", async () => {
    const withTerms = await api.contact({ company: 'Terms SA', default_payment_terms: '45 jours fin de mois', default_discount_terms: 'Pas d’escompte' });
    const doc = await api.draft({ type: 'facture', contact_id: withTerms.id, issue_date: '2026-01-10', items: [line('A', '1', 100)] });
    expect(doc).toMatchObject({ payment_terms: '45 jours fin de mois', discount_terms: 'Pas d’escompte', due_date: '2026-02-28', validity_date: null });

    const plain = await api.draft({ type: 'facture', contact_id: client.id, issue_date: '2026-03-01', items: [line('A', '1', 100)] });
    expect(plain).toMatchObject({ payment_terms: null, due_date: '2026-03-31' }); // the legal 30 days

    const explicit = await api.draft({ type: 'facture', contact_id: withTerms.id, issue_date: '2026-03-01', due_date: '2026-03-05', payment_terms: null });
    expect(explicit).toMatchObject({ payment_terms: null, due_date: '2026-03-05', items: [], total_ttc: 0 });
  });

  it('fills a line from a catalogue product and converts its unit label', async () => {
    const product = (
      await call(routes.createProduct, 'POST', '/v1/products', {
        token: api.token,
        body: { name: 'Journée de conseil', description: 'Sur site', unit: 'jour', unit_price_cents: 85000, vat_rate: '20' },
      })
    ).body;
    const doc = await api.draft({ type: 'devis', contact_id: client.id, items: [{ product_id: product.id, quantity: '2' }] });
    expect(doc.items[0]).toMatchObject({
      description: 'Journée de conseil',
      details: 'Sur site',
      unit: 'DAY',
      unit_price: 85000,
      vat_rate: '20.00',
      product_id: product.id,
      total_ht: 170000,
    });
    expect(doc).toMatchObject({ total_ht: 170000, total_tva: 34000, total_ttc: 204000 });
  });

  it('accepts 0 % lines with their exemption category', async () => {
    const doc = await api.draft({
      type: 'facture',
      contact_id: client.id,
      items: [line('Formation', '1', 50000, '0'), line('Export', '1', 1000, '0', { vat_category: 'G' })],
    });
    expect(doc.items.map((i: { vat_category: string }) => i.vat_category)).toEqual(['E', 'G']);
    expect(doc).toMatchObject({ total_ht: 51000, total_tva: 0, total_ttc: 51000 });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['an acompte', { type: 'acompte' }, 'type'],
    ['an unknown field', { foo: 1 }, 'foo'],
    ['a malformed date', { issue_date: '2026-02-30' }, 'issue_date'],
    ['a due date before the issue date', { issue_date: '2026-05-10', due_date: '2026-05-09' }, 'due_date'],
    ['a line without a price', { items: [{ description: 'x', quantity: '1', vat_rate: '20' }] }, 'items.0.unit_price'],
    ['a negative quantity', { items: [line('x', '-2', 100)] }, 'items.0.quantity'],
    ['a zero quantity', { items: [line('x', '0', 100)] }, 'items.0.quantity'],
    ['a quantity with 5 decimals', { items: [line('x', '1.00001', 100)] }, 'items.0.quantity'],
    ['a quantity in exponent form', { items: [line('x', '1e3', 100)] }, 'items.0.quantity'],
    ['a rate above 100', { items: [line('a', '1', 100), line('x', '1', 100, '120')] }, 'items.1.vat_rate'],
    ['a rate with 3 decimals', { items: [line('x', '1', 100, '5.555')] }, 'items.0.vat_rate'],
    ['a negative price', { items: [line('x', '1', -1)] }, 'items.0.unit_price'],
    ['a fractional price', { items: [line('x', '1', 10.5)] }, 'items.0.unit_price'],
    ['S at 0 %', { items: [line('x', '1', 100, '0', { vat_category: 'S' })] }, 'items.0.vat_category'],
    ['E at 20 %', { items: [line('x', '1', 100, '20', { vat_category: 'E' })] }, 'items.0.vat_category'],
    ['a discount with no line of its rate', { items: [line('x', '1', 1000), { kind: 'discount', description: 'r', unit_price: 10, vat_rate: '10' }] }, 'items.1.vat_rate'],
    ['a discount above its group subtotal', { items: [line('x', '1', 1000), { kind: 'discount', description: 'r', unit_price: 1001, vat_rate: '20' }] }, 'items.1.unit_price'],
    ['an unknown product', { items: [{ product_id: '01900000-0000-7000-8000-000000000000', quantity: '1' }] }, 'items.0.product_id'],
    ['an unknown unit code', { items: [line('x', '1', 100, '20', { unit: 'hours' })] }, 'items.0.unit'],
    ['a lone surrogate', { title: 'bad \ud800' }, 'title'],
    ['a plan without its config', { payment_plan_kind: 'installments' }, 'payment_plan_config'],
    ['a config without a plan', { payment_plan_config: { count: 3 } }, 'payment_plan_config'],
    ['a plan with the wrong config', { payment_plan_kind: 'deposit_then_balance', payment_plan_config: { count: 3 } }, 'payment_plan_config'],
    ['an unknown contact', { contact_id: '01900000-0000-7000-8000-000000000000' }, 'contact_id'],
    ['a delivery address without a city', { delivery_address: { address: '1 rue X' } }, 'delivery_address.city'],
  ];
  it.each(invalid)('refuses %s with 422 naming the field', async (_name, patch, field) => {
    const res = await api.create({ type: 'facture', contact_id: client.id, ...patch });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
  });

  it('validates and stores a payment plan', async () => {
    const doc = await api.draft({ type: 'devis', contact_id: client.id, payment_plan_kind: 'deposit_then_balance', payment_plan_config: { percentage: '30' } });
    expect(doc).toMatchObject({ payment_plan_kind: 'deposit_then_balance', payment_plan_config: { percentage: '30' } });
    const patched = (await api.patch(doc.id, { payment_plan_kind: 'none' })).body;
    expect(patched).toMatchObject({ payment_plan_kind: 'none', payment_plan_config: null });
  });

  it('refuses a contact that is deleted or erased', async () => {
    const gone = await api.contact({ company: 'Gone' });
    await call(contactRoutes.delete, 'DELETE', `/v1/contacts/${gone.id}`, { token: api.token, params: { id: gone.id } });
    const res = await api.create({ type: 'devis', contact_id: gone.id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ field: 'contact_id', message: expect.stringContaining('deleted') });
  });
});

describe('PATCH /v1/invoices/{id}', () => {
  it('leaves omitted keys, clears nulls and replaces the lines and totals', async () => {
    const doc = await api.draft({ type: 'facture', contact_id: client.id, title: 'T', notes: 'N', items: [line('A', '1', 1000), line('B', '1', 500)] });
    const res = await api.patch(doc.id, { notes: null, items: [line('C', '2', 333, '10')] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'T', notes: null, total_ht: 666, total_tva: 67, total_ttc: 733 });
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ description: 'C', total_ht: 666 });
    expect((await eventsOf(org, 'invoice.updated')).some((e) => (e.payload as { object: { id: string } }).object.id === doc.id)).toBe(true);
  });

  it('refuses null on required fields and a due date before the issue date', async () => {
    const doc = await api.draft({ type: 'facture', contact_id: client.id, issue_date: '2026-06-01' });
    expect((await api.patch(doc.id, { issue_date: null })).body).toMatchObject({ code: 'validation_error', field: 'issue_date' });
    expect((await api.patch(doc.id, { contact_id: null })).body).toMatchObject({ field: 'contact_id' });
    expect((await api.patch(doc.id, { type: 'devis' })).body).toMatchObject({ field: 'type' });
    expect((await api.patch(doc.id, { due_date: '2026-05-01' })).body).toMatchObject({ field: 'due_date' });
  });
});

describe('DELETE /v1/invoices/{id}', () => {
  it('deletes a draft with its lines', async () => {
    const doc = await api.draft({ type: 'devis', contact_id: client.id, items: [line('A', '1', 1)] });
    expect((await api.remove(doc.id)).status).toBe(204);
    expect((await api.get(doc.id)).status).toBe(404);
  });
});

describe('GET /v1/invoices', () => {
  it('filters by type, status, contact, q, issue dates and overdue, newest first, items omitted', async () => {
    const other = await createTestOrg();
    const o = await billingContext(other);
    const alice = await o.contact({ company: 'Alice Boulangerie' });
    const bob = await o.contact({ company: 'Bob Plomberie' });
    const q1 = await o.draft({ type: 'devis', contact_id: alice.id, title: 'Fournil', issue_date: '2026-01-15', items: [line('A', '1', 100)] });
    const f1 = await o.issued({ type: 'facture', contact_id: bob.id, issue_date: todayParis(), due_date: todayParis(), items: [line('A', '1', 100)] });
    const f2 = await o.draft({ type: 'facture', contact_id: alice.id, issue_date: '2026-02-01', items: [line('A', '1', 100)] });
    // Another org's draft for a client of the same name is not found by q (the live-name lookup is per org).
    await api.draft({ type: 'devis', contact_id: (await api.contact({ company: 'Boulangerie Voisine' })).id, items: [line('A', '1', 100)] });

    const ids = async (query: Record<string, string>) => {
      const res = await o.list(query);
      expect(res.status).toBe(200);
      return res.body.data.map((d: { id: string }) => d.id);
    };
    expect(await ids({})).toEqual([f2.id, f1.id, q1.id]);
    expect((await o.list({})).body.data[0]).not.toHaveProperty('items');
    expect((await o.list({})).body.data[0].contact_name).toBe('Alice Boulangerie');
    expect(await ids({ type: 'facture' })).toEqual([f2.id, f1.id]);
    expect(await ids({ status: 'finalized' })).toEqual([f1.id]);
    expect(await ids({ contact_id: alice.id })).toEqual([f2.id, q1.id]);
    expect(await ids({ q: 'boulang' })).toEqual([f2.id, q1.id]);
    expect(await ids({ q: 'fournil' })).toEqual([q1.id]);
    expect(await ids({ q: f1.number.toLowerCase() })).toEqual([f1.id]);
    expect(await ids({ q: '100%' })).toEqual([]);
    expect(await ids({ issue_date_from: '2026-01-01', issue_date_to: '2026-01-31' })).toEqual([q1.id]);
    expect(await ids({ overdue: 'true' })).toEqual([]);

    const page = await o.list({ limit: '2' });
    expect(page.body.data).toHaveLength(2);
    const next = await o.list({ limit: '2', cursor: page.body.meta.next_cursor });
    expect(next.body.data.map((d: { id: string }) => d.id)).toEqual([q1.id]);
    expect(next.body.meta.next_cursor).toBeNull();

    expect((await o.list({ issue_date_from: '2026-02-01', issue_date_to: '2026-01-01' })).body).toMatchObject({ field: 'issue_date_to' });
    expect((await o.list({ overdue: 'maybe' })).body).toMatchObject({ field: 'overdue' });
  });
});

describe('contact_name', () => {
  it('is the live name on a draft, null once the contact is erased or deleted, and the frozen snapshot once finalized', async () => {
    const erased = await api.contact({ company: 'Erased SAS' });
    const deleted = await api.contact({ company: 'Deleted SAS' });
    const draftE = await api.draft({ type: 'devis', contact_id: erased.id, items: [line('A', '1', 100)] });
    const finalE = await api.issued({ type: 'facture', contact_id: erased.id, items: [line('A', '1', 100)] });
    const draftD = await api.draft({ type: 'devis', contact_id: deleted.id, items: [line('A', '1', 100)] });
    expect(finalE.client_snapshot).toMatchObject({ name: 'Erased SAS', company: 'Erased SAS', siret: '55203253400646', city: 'Lyon' });

    await call(contactRoutes.erase, 'POST', `/v1/contacts/${erased.id}/erase`, { token: api.token, params: { id: erased.id } });
    await call(contactRoutes.delete, 'DELETE', `/v1/contacts/${deleted.id}`, { token: api.token, params: { id: deleted.id } });

    expect((await api.get(draftE.id)).body.contact_name).toBeNull();
    expect((await api.get(draftD.id)).body.contact_name).toBeNull();
    const final = (await api.get(finalE.id)).body;
    expect(final.contact_name).toBe('Erased SAS');
    expect(final.client_snapshot.name).toBe('Erased SAS');
    const listed = (await api.list({ contact_id: erased.id })).body.data;
    expect(listed.map((d: { id: string; contact_name: string | null }) => [d.id, d.contact_name])).toEqual([
      [finalE.id, 'Erased SAS'],
      [draftE.id, null],
    ]);
    // The erased contact's draft cannot be issued: there is nobody left to bill.
    expect((await api.finalize(draftE.id)).body).toMatchObject({ code: 'validation_error', field: 'contact_id' });
  });

  it('follows a contact merge (documents move to the target, finalized ones included)', async () => {
    const target = await api.contact({ company: 'Target SA' });
    const source = await api.contact({ company: 'Source SA' });
    const draft = await api.draft({ type: 'devis', contact_id: source.id, items: [line('A', '1', 100)] });
    const issued = await api.issued({ type: 'facture', contact_id: source.id, items: [line('A', '1', 100)] });
    const res = await call(contactRoutes.merge, 'POST', `/v1/contacts/${target.id}/merge`, {
      token: api.token,
      params: { id: target.id },
      body: { source_ids: [source.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.moves).toContainEqual({ resource: 'billing_documents', count: 2 });
    expect((await api.get(draft.id)).body).toMatchObject({ contact_id: target.id, contact_name: 'Target SA' });
    expect((await api.get(issued.id)).body).toMatchObject({ contact_id: target.id, contact_name: 'Source SA', content_hash: issued.content_hash });
  });
});
