import { beforeAll, describe, expect, it } from 'vitest';
import * as ereportingRoute from '@/app/v1/invoices/ereporting/route';
import { finalizeDocument } from '@/lib/domain/documents';
import { billingContext, line, routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { servedBy } from '@/lib/testing/next-routes';

/**
 * One org's March 2026, every figure computed by hand from these documents (range 2026-03-01 … 2026-03-31):
 *   03-02  B2C goods       Table 890.00 @20 + 2 × Livre 12.50 @5.5          → S20 89 000/17 800, S5.5 2 500/138 (137.5 rounded up)
 *   03-02  B2C services    3 × Cours 40.00 @20, taxed on receipts           → S20 12 000/2 400; paid 144.00 on 03-05
 *   03-02  intra-EU (DE)   Machine 5 000.00 K 0 %                            → 500 000/0
 *   03-02  domestic (FR business)                                            → not e-reported
 *   03-03  export (US)     10 × 150.00 G 0 %                                 → 150 000/0
 *   03-04  B2C services    Conseil 100.00 @20, option for debits             → S20 10 000/2 000; paid on 03-06, not a receipts payment
 *   03-04  B2C services    Formation 100.00 @20 + Support 100.00 @5.5        → S20 10 000/2 000, S5.5 10 000/550; paid 100.00 on 03-08:
 *                          split 120.00 : 105.50 of TTC → 53.22 at 20 % (5 321.5 rounded up), 46.78 at 5.5 %
 *   03-10  B2C credit note on the goods invoice: Livre 12.50 @5.5           → −1 250/−69 (68.75 rounded up)
 *   04-15  B2C invoice (out of range), a B2C draft (never counted)
 */
let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
const at = (day: string) => new Date(`${day}T10:00:00Z`);
const get = (query: Record<string, string>, token = api.token) => call(ereportingRoute.GET, 'GET', '/v1/invoices/ereporting', { token, query });
const MARCH = { from: '2026-03-01', to: '2026-03-31' };

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  api.expectStatus(
    await call(routes.putSettings, 'PUT', '/v1/invoice/settings', {
      token: api.token,
      body: { ereporting_prefs: { b2c_sales: true, international_sales: true, payment_data: true, vat_regime: 'reel_normal_mensuel' } },
    }),
    200,
    'settings',
  );
  const consumer = await api.contact({ type: 'particulier', company: null, siret: null, first_name: 'Léa', last_name: 'Martin', email: 'lea@example.fr' });
  const german = await api.contact({ company: 'Kunde GmbH', email: 'buchhaltung@kunde.de', siret: null, country: 'DE', city: 'Berlin', postal_code: '10115', vat_intra: 'DE123456789' });
  const american = await api.contact({ company: 'Customer Inc.', email: 'ap@customer.com', siret: null, country: 'US', city: 'New York', postal_code: '10001' });
  const french = await api.contact({ company: 'Client SARL' });
  const issue = async (body: Record<string, unknown>, day: string) => finalizeDocument(org.db, org.org.id, (await api.draft({ ...body, issue_date: day })).id, at(day));

  const goods = await issue({ type: 'facture', contact_id: consumer.id, operation_nature: 'biens', items: [line('Table', '1', 89000, '20'), line('Livre', '2', 1250, '5.5')] }, '2026-03-02');
  const lessons = await issue({ type: 'facture', contact_id: consumer.id, vat_exigibility: 'encaissements', items: [line('Cours', '3', 4000, '20')] }, '2026-03-02');
  api.expectStatus(await api.pay(lessons.id, { amount: 14400, paid_at: '2026-03-05' }), 201, 'pay lessons');
  await issue({ type: 'facture', contact_id: german.id, operation_nature: 'biens', items: [line('Machine', '1', 500000, '0', { vat_category: 'K' })] }, '2026-03-02');
  await issue({ type: 'facture', contact_id: french.id, items: [line('Audit', '1', 70000, '20')] }, '2026-03-02');
  await issue({ type: 'facture', contact_id: american.id, operation_nature: 'biens', items: [line('Export shipment', '10', 15000, '0', { vat_category: 'G' })] }, '2026-03-03');
  const advice = await issue({ type: 'facture', contact_id: consumer.id, vat_exigibility: 'debits', items: [line('Conseil', '1', 10000, '20')] }, '2026-03-04');
  api.expectStatus(await api.pay(advice.id, { amount: 12000, paid_at: '2026-03-06' }), 201, 'pay advice');
  const training = await issue(
    { type: 'facture', contact_id: consumer.id, vat_exigibility: 'encaissements', items: [line('Formation', '1', 10000, '20'), line('Support écrit', '1', 10000, '5.5')] },
    '2026-03-04',
  );
  api.expectStatus(await api.pay(training.id, { amount: 10000, paid_at: '2026-03-08' }), 201, 'pay training');
  const credit = api.expectStatus(await api.creditNote(goods.id, { credit_reason_code: 'return', items: [line('Livre', '1', 1250, '5.5')] }), 201, 'credit note');
  api.expectStatus(await api.patch(credit.id, { issue_date: '2026-03-10' }), 200, 'credit note date');
  await finalizeDocument(org.db, org.org.id, credit.id, at('2026-03-10'));
  await issue({ type: 'facture', contact_id: consumer.id, items: [line('Avril', '1', 5000, '20')] }, '2026-04-15');
  await api.draft({ type: 'facture', contact_id: consumer.id, issue_date: '2026-03-15', items: [line('Brouillon', '1', 99900, '20')] });
}, 120_000);

const day = (date: string, vat_category: string, vat_rate: string, invoice_count: number, credit_note_count: number, total_ht: number, total_vat: number) => ({
  date,
  vat_category,
  vat_rate,
  invoice_count,
  credit_note_count,
  total_ht,
  total_vat,
  total_ttc: total_ht + total_vat,
});

describe('GET /v1/invoices/ereporting', () => {
  it('answers the hand-computed B2C, international and payment figures of the month, to the cent', async () => {
    const res = await get(MARCH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...MARCH,
      currency: 'EUR',
      prefs: { b2c_sales: true, international_sales: true, payment_data: true, vat_regime: 'reel_normal_mensuel', periodicity: 'decade', payments_periodicity: 'monthly' },
      b2c: {
        days: [
          day('2026-03-02', 'S', '20.00', 2, 0, 101000, 20200),
          day('2026-03-02', 'S', '5.50', 1, 0, 2500, 138),
          day('2026-03-04', 'S', '20.00', 2, 0, 20000, 4000),
          day('2026-03-04', 'S', '5.50', 1, 0, 10000, 550),
          day('2026-03-10', 'S', '5.50', 0, 1, -1250, -69),
        ],
        total: { total_ht: 132250, total_vat: 24819, total_ttc: 157069 },
      },
      international: {
        days: [
          { kind: 'intra_eu', ...day('2026-03-02', 'K', '0.00', 1, 0, 500000, 0) },
          { kind: 'export', ...day('2026-03-03', 'G', '0.00', 1, 0, 150000, 0) },
        ],
        total: { total_ht: 650000, total_vat: 0, total_ttc: 650000 },
      },
      payments: {
        days: [
          { date: '2026-03-05', vat_rate: '20.00', amount: 14400 },
          { date: '2026-03-08', vat_rate: '20.00', amount: 5322 },
          { date: '2026-03-08', vat_rate: '5.50', amount: 4678 },
        ],
        total: { amount: 24400 },
      },
    });
  });

  it('a range that holds part of the month holds only its days', async () => {
    const res = await get({ from: '2026-03-03', to: '2026-03-05' });
    expect(res.body.b2c.days.map((d: { date: string }) => d.date)).toEqual(['2026-03-04', '2026-03-04']);
    expect(res.body.international.days.map((d: { kind: string }) => d.kind)).toEqual(['export']);
    expect(res.body.payments).toEqual({ days: [{ date: '2026-03-05', vat_rate: '20.00', amount: 14400 }], total: { amount: 14400 } });
  });

  it('shows nothing of another org, and another org’s sales do not reach this one', async () => {
    const other = await createTestOrg();
    const otherApi = await billingContext(other);
    const consumer = await otherApi.contact({ type: 'particulier', company: null, siret: null, first_name: 'Paul', last_name: 'Durand', email: 'paul@example.fr' });
    await finalizeDocument(other.db, other.org.id, (await otherApi.draft({ type: 'facture', contact_id: consumer.id, issue_date: '2026-03-02', items: [line('Vélo', '1', 50000, '20')] })).id, at('2026-03-02'));
    const theirs = await get(MARCH, otherApi.token);
    expect(theirs.body.prefs).toBeNull();
    expect(theirs.body.b2c).toEqual({ days: [day('2026-03-02', 'S', '20.00', 1, 0, 50000, 10000)], total: { total_ht: 50000, total_vat: 10000, total_ttc: 60000 } });
    expect(theirs.body.international.days).toEqual([]);
    expect((await get(MARCH)).body.b2c.total).toEqual({ total_ht: 132250, total_vat: 24819, total_ttc: 157069 });
  });

  it('401 without a key, 403 without invoice:read', async () => {
    expect((await call(ereportingRoute.GET, 'GET', '/v1/invoices/ereporting', { query: MARCH })).status).toBe(401);
    const res = await get(MARCH, await org.key(['contacts:read']));
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
  });

  it.each([
    [{ to: '2026-03-31' }, 'from'],
    [{ from: '2026-03-01' }, 'to'],
    [{ from: '2026-03-01', to: '2026-02-28' }, 'to'],
    [{ from: '2026-03-01', to: '2027-03-01' }, 'to'],
    [{ from: '2026-02-30', to: '2026-03-31' }, 'from'],
    [{ from: '01/03/2026', to: '2026-03-31' }, 'from'],
  ])('422 on %j naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
  });

  it('takes a whole year (to the day before the anniversary)', async () => {
    expect((await get({ from: '2026-03-01', to: '2027-02-28' })).status).toBe(200);
  });

  it('is served by its own route, not captured by /v1/invoices/{id} (the static segment wins)', () => {
    expect(servedBy('/v1/invoices/ereporting')).toBe('/v1/invoices/ereporting');
    expect(servedBy('/v1/invoices/0190f3a0-0000-7000-8000-000000000001')).toBe('/v1/invoices/[id]');
  });
});
