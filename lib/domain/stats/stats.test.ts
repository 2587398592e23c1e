import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { todayParis } from '@/lib/platform/dates';
import { finalizeDocument } from '@/lib/domain/documents';
import { billingContext, line, routes } from '@/lib/domain/documents/testing';

/**
 * One org with a hand-made quarter (every figure below is computed by hand from these documents):
 *   2026-01-15  invoice Alpha   1 000.00 HT @ 20 %  → 1 200.00 TTC; paid 500.00 on 2026-02-01; credited 200.00 HT (240.00 TTC) on 2026-03-20
 *   2026-02-01  quote Beta      2 000.00 HT @ 20 %, accepted; deposit 30 % on 2026-02-05 → 600.00 HT, 120.00 VAT, 720.00 TTC, unpaid
 *   2026-02-10  invoice Beta      500.00 HT @ 10 %  →   550.00 TTC, paid in full on 2026-02-15
 *   2026-03-01  quote Alpha     1 000.00 HT, open (valid until 2099-12-31)
 *   today       invoice Alpha     100.00 HT @ 20 %  →   120.00 TTC, due in 30 days
 *   a draft invoice for Alpha (never counted but in drafts)
 */
let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let alpha: { id: string };
let beta: { id: string };
const at = (day: string) => new Date(`${day}T10:00:00Z`);

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  alpha = await api.contact({ company: 'Alpha' });
  beta = await api.contact({ company: 'Beta' });
  const issue = async (body: Record<string, unknown>, day: string) => finalizeDocument(org.db, org.org.id, (await api.draft({ ...body, issue_date: day })).id, at(day));

  const janAlpha = await issue({ type: 'facture', contact_id: alpha.id, items: [line('Audit', '1', 100000, '20')] }, '2026-01-15');
  await api.pay(janAlpha.id, { amount: 50000, paid_at: '2026-02-01' });

  const quoteBeta = await issue({ type: 'devis', contact_id: beta.id, validity_date: '2099-12-31', items: [line('Chantier', '1', 200000, '20')] }, '2026-02-01');
  await api.accept(quoteBeta.id);
  const deposit = (await api.deposit(quoteBeta.id, { percentage: '30' })).body;
  await api.patch(deposit.id, { issue_date: '2026-02-05', due_date: '2026-02-05' });
  await finalizeDocument(org.db, org.org.id, deposit.id, at('2026-02-05'));

  const febBeta = await issue({ type: 'facture', contact_id: beta.id, items: [line('Plomberie', '1', 50000, '10')] }, '2026-02-10');
  await api.pay(febBeta.id, { amount: 55000, paid_at: '2026-02-15' });

  await issue({ type: 'devis', contact_id: alpha.id, validity_date: '2099-12-31', items: [line('Suite', '1', 100000, '20')] }, '2026-03-01');

  const credit = (await api.creditNote(janAlpha.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 20000, '20')] })).body;
  await api.patch(credit.id, { issue_date: '2026-03-20' });
  await finalizeDocument(org.db, org.org.id, credit.id, at('2026-03-20'));

  await api.issued({ type: 'facture', contact_id: alpha.id, items: [line('Support', '1', 10000, '20')] });
  await api.draft({ type: 'facture', contact_id: alpha.id, items: [line('Brouillon', '1', 99900, '20')] });
});

const get = (handler: (typeof routes)['stats'], path: string, query: Record<string, string> = {}) => call(handler, 'GET', path, { token: api.token, query });

describe('GET /v1/invoices/stats', () => {
  it('answers the hand-computed figures of the quarter, outstanding and overdue as of today', async () => {
    const res = await get(routes.stats, '/v1/invoices/stats', { from: '2026-01-01', to: '2026-03-31' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      as_of: todayParis(),
      invoiced: { count: 3, total_ht: 210000, total_tva: 37000, total_ttc: 247000 },
      credited: { count: 1, total_ht: 20000, total_tva: 4000, total_ttc: 24000 },
      net: { total_ht: 190000, total_tva: 33000, total_ttc: 223000 },
      collected: { count: 2, amount: 105000 },
      // Alpha January: 1200 − 500 paid − 240 credited = 460 (overdue); Beta deposit 720 (overdue); Alpha today 120 (not due).
      outstanding: { count: 3, amount: 130000 },
      overdue: { count: 2, amount: 118000 },
      drafts: { count: 1 },
      quotes: { open: { count: 1, total_ht: 100000 }, accepted: { count: 1, total_ht: 200000 }, rejected: { count: 0 }, expired: { count: 0 } },
    });
  });

  it('defaults to January 1st of this year through today, and validates its range', async () => {
    const res = await get(routes.stats, '/v1/invoices/stats');
    expect(res.body).toMatchObject({ from: `${todayParis().slice(0, 4)}-01-01`, to: todayParis() });
    expect((await get(routes.stats, '/v1/invoices/stats', { from: '2026-05-01', to: '2026-04-01' })).body).toMatchObject({ code: 'validation_error', field: 'to' });
    expect((await get(routes.stats, '/v1/invoices/stats', { from: '2026-5-1' })).body).toMatchObject({ code: 'validation_error', field: 'from' });
  });
});

describe('GET /v1/invoices/revenue', () => {
  it('lists every month of the range with credit notes netted', async () => {
    const res = await get(routes.revenue, '/v1/invoices/revenue', { from: '2025-12-01', to: '2026-03-31' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2025-12-01',
      to: '2026-03-31',
      months: [
        { month: '2025-12', invoiced_ht: 0, credited_ht: 0, net_ht: 0, net_tva: 0, net_ttc: 0, invoice_count: 0, credit_note_count: 0 },
        { month: '2026-01', invoiced_ht: 100000, credited_ht: 0, net_ht: 100000, net_tva: 20000, net_ttc: 120000, invoice_count: 1, credit_note_count: 0 },
        { month: '2026-02', invoiced_ht: 110000, credited_ht: 0, net_ht: 110000, net_tva: 17000, net_ttc: 127000, invoice_count: 2, credit_note_count: 0 },
        { month: '2026-03', invoiced_ht: 0, credited_ht: 20000, net_ht: -20000, net_tva: -4000, net_ttc: -24000, invoice_count: 0, credit_note_count: 1 },
      ],
      total: { invoiced_ht: 210000, credited_ht: 20000, net_ht: 190000, net_tva: 33000, net_ttc: 223000 },
    });
  });

  it('defaults to the last twelve months and caps a request at 120 months', async () => {
    const res = await get(routes.revenue, '/v1/invoices/revenue');
    expect(res.body.months).toHaveLength(12);
    expect(res.body.months.at(-1).month).toBe(todayParis().slice(0, 7));
    expect(res.body.total.net_ht).toBe(res.body.months.reduce((s: number, m: { net_ht: number }) => s + m.net_ht, 0));
    expect((await get(routes.revenue, '/v1/invoices/revenue', { from: '2000-01-01', to: '2026-01-01' })).body).toMatchObject({ code: 'validation_error', field: 'from' });
  });
});

describe('GET /v1/invoices/revenue/by-client', () => {
  it('ranks the clients by net revenue', async () => {
    const res = await get(routes.revenueByClient, '/v1/invoices/revenue/by-client', { from: '2026-01-01', to: '2026-03-31' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      data: [
        { contact_id: beta.id, contact_name: 'Beta', invoiced_ht: 110000, credited_ht: 0, net_ht: 110000, net_tva: 17000, net_ttc: 127000, document_count: 2 },
        { contact_id: alpha.id, contact_name: 'Alpha', invoiced_ht: 100000, credited_ht: 20000, net_ht: 80000, net_tva: 16000, net_ttc: 96000, document_count: 2 },
      ],
    });
    const top = await get(routes.revenueByClient, '/v1/invoices/revenue/by-client', { from: '2026-01-01', to: '2026-03-31', limit: '1' });
    expect(top.body.data.map((r: { contact_id: string }) => r.contact_id)).toEqual([beta.id]);
    expect((await get(routes.revenueByClient, '/v1/invoices/revenue/by-client', { limit: '0' })).body).toMatchObject({ field: 'limit' });
  });
});

describe('GET /v1/invoices/client-summary', () => {
  it('sums everything billed to one client, all time', async () => {
    const res = await get(routes.clientSummary, '/v1/invoices/client-summary', { contact_id: alpha.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      contact_id: alpha.id,
      contact_name: 'Alpha',
      as_of: todayParis(),
      drafts: { count: 1 },
      quotes: { count: 1, open: 1, accepted: 0, accepted_ht: 0 },
      invoiced: { count: 2, total_ht: 110000, total_tva: 22000, total_ttc: 132000 },
      credited: { count: 1, total_ht: 20000, total_tva: 4000, total_ttc: 24000 },
      paid: { count: 1, amount: 50000 },
      outstanding: { count: 2, amount: 58000 },
      overdue: { count: 1, amount: 46000 },
      first_issue_date: '2026-01-15',
      last_issue_date: todayParis(),
    });
    const beta2 = (await get(routes.clientSummary, '/v1/invoices/client-summary', { contact_id: beta.id })).body;
    expect(beta2).toMatchObject({ quotes: { count: 1, accepted: 1, accepted_ht: 200000 }, paid: { count: 1, amount: 55000 }, outstanding: { count: 1, amount: 72000 } });
  });

  it('answers 404 for a contact that is not the org’s and 422 without contact_id', async () => {
    const other = await createTestOrg();
    const theirs = await (await billingContext(other)).contact();
    expect((await get(routes.clientSummary, '/v1/invoices/client-summary', { contact_id: theirs.id })).status).toBe(404);
    expect((await get(routes.clientSummary, '/v1/invoices/client-summary')).body).toMatchObject({ code: 'validation_error', field: 'contact_id' });
  });

  it('an empty org has zeros everywhere', async () => {
    const o = await createTestOrg();
    const res = await call(routes.stats, 'GET', '/v1/invoices/stats', { token: await o.key() });
    expect(res.body).toMatchObject({ invoiced: { count: 0, total_ttc: 0 }, outstanding: { count: 0, amount: 0 }, drafts: { count: 0 } });
  });
});
