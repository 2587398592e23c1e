import { beforeAll, describe, expect, it } from 'vitest';
import { type billingContext, line } from '@/lib/domain/documents/testing';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { parisInstant, todayParis } from '@/lib/platform/dates';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { currentMonth, DEFAULT_EXPORT_SETTINGS, type FecEntry, fecEntries, fecFile, numbered, type PeriodPayment, paymentEntries, paymentsCsv, periodPayments, presetOf, presetPeriod } from '.';

type Api = Awaited<ReturnType<typeof billingContext>>;
type Doc = { id: string; number: string; total_ht: number; total_tva: number; total_ttc: number };

let org: TestOrg;
let api: Api;
let goods: Doc;
let mixed: Doc;
const month = currentMonth();
const rows = (e: FecEntry) => e.lines.map((l) => [l.account, l.debit, l.credit]);
const balanced = (e: FecEntry) => e.lines.reduce((s, l) => s + l.debit - l.credit, 0) === 0;

beforeAll(async () => {
  org = await createTestOrg();
  api = (await completeSeller(org)) as Api;
  const client = (await api.contact({ company: 'Quincaillerie SARL' })).id;
  // Goods at every standard rate and one other (8.5 %, DOM): amounts chosen so that VAT rounds.
  goods = (await api.issued({
    type: 'facture',
    contact_id: client,
    operation_nature: 'biens',
    items: [line('Vis', '3', 3_333, '20'), line('Repas', '1', 1_234, '10'), line('Livres', '7', 1_999, '5.5'), line('Presse', '1', 10_000, '2.1'), line('Outre-mer', '1', 5_000, '8.5')],
  })) as Doc;
  // « mixte »: the services accounts; two lines at 20 % on one revenue line, a discount netted in.
  mixed = (await api.issued({
    type: 'facture',
    contact_id: client,
    operation_nature: 'mixte',
    items: [line('Pose', '2', 12_345, '20'), line('Réglage', '1', 1_001, '20'), { kind: 'discount', description: 'Remise', unit_price: 346, vat_rate: '20' }],
  })) as Doc;
  api.expectStatus(await api.pay(goods.id, { amount: 40_000, method: 'bank_transfer', reference: 'VIR 7' }), 201, 'pay');
  api.expectStatus(await api.pay(mixed.id, { amount: 10_000, method: 'card' }), 201, 'pay');
});

describe('the sales journal per nature and rate', () => {
  it('credits one 707 account per rate for goods and a 4457 account per rate, to the cent', async () => {
    const entries = await fecEntries(org.db, org.org.id, month);
    const entry = entries.find((e) => e.documentId === goods.id)!;
    // In the order of EN 16931's VAT groups (rate, highest first). 9 999 at 20 % → 2 000 VAT (1 999.8); 1 234 at 10 % → 123; 13 993 at 5.5 % → 770 (769.615); 10 000 at 2.1 % → 210; 5 000 at 8.5 % → 425.
    expect(rows(entry)).toEqual([
      ['411000', 43_754, 0],
      ['707200', 0, 9_999],
      ['707100', 0, 1_234],
      ['707000', 0, 5_000],
      ['707055', 0, 13_993],
      ['707021', 0, 10_000],
      ['445711', 0, 2_000],
      ['445712', 0, 123],
      ['445710', 0, 425],
      ['445713', 0, 770],
      ['445714', 0, 210],
    ]);
    expect(entry.lines[1]!.accountLabel).toBe('Ventes de marchandises TVA 20 %');
    expect([goods.total_ht, goods.total_tva, goods.total_ttc]).toEqual([40_226, 3_528, 43_754]);
    expect(balanced(entry)).toBe(true);
  });

  it('puts a mixed document on the services accounts, one line per account', async () => {
    const entry = (await fecEntries(org.db, org.org.id, month)).find((e) => e.documentId === mixed.id)!;
    // 24 690 + 1 001 − 346 = 25 345 at 20 % → 5 069 VAT.
    expect(rows(entry)).toEqual([
      ['411000', 30_414, 0],
      ['706200', 0, 25_345],
      ['445711', 0, 5_069],
    ]);
    expect(mixed.total_ttc).toBe(30_414);
  });

  it('writes a rate to the account the org chose, and the rest to the fallbacks', async () => {
    const settings = { ...DEFAULT_EXPORT_SETTINGS, goods_20: '707120', vat_20: '445701', goods_account: '707900', vat_account: '445790' };
    const entry = (await fecEntries(org.db, org.org.id, month, settings)).find((e) => e.documentId === goods.id)!;
    expect(entry.lines.map((l) => l.account)).toEqual(['411000', '707120', '707100', '707900', '707055', '707021', '445701', '445712', '445790', '445713', '445714']);
  });
});

describe('the bank journal', () => {
  it('has one balanced entry per payment of paiements.csv: the bank debited, the client credited', async () => {
    const payments = await periodPayments(org.db, org.org.id, month);
    const entries = paymentEntries(payments);
    expect(entries.map((e) => [e.journalCode, e.journalLabel, e.pieceRef, ...rows(e)])).toEqual([
      ['BQ', 'Banque', goods.number, ['512000', 40_000, 0], ['411000', 0, 40_000]],
      ['BQ', 'Banque', mixed.number, ['512000', 10_000, 0], ['411000', 0, 10_000]],
    ]);
    expect(entries[0]!.lines[1]!.auxAccount).toMatch(/^C[0-9A-F]{16}$/);
    expect(entries[0]!.lines[0]!.label).toBe(`Règlement ${goods.number} Quincaillerie SARL virement VIR 7`);
    // The same payments, in the same order, as the CSV lists them.
    const csv = (await paymentsCsv(org.db, org.org.id, month)).trim().split('\r\n').slice(1);
    expect(csv.map((r) => r.split(';')[1])).toEqual(entries.map((e) => e.pieceRef));
    expect(csv.map((r) => r.split(';')[5])).toEqual(['400,00', '100,00']);
  });

  it('reverses a refund and a payment on a credit note', () => {
    const base: PeriodPayment = {
      id: 'p',
      paid_at: '2026-10-01',
      created_at: new Date('2026-10-01T08:00:00Z'),
      amount: -2_500,
      method: 'bank_transfer',
      reference: null,
      document_number: 'F-1',
      document_type: 'facture',
      contact_id: '0190a0b4-0000-7000-8000-0000000000aa',
      client: { name: 'A' },
    };
    const [refund, avoir] = paymentEntries([base, { ...base, amount: 1_200, document_type: 'avoir', document_number: 'AV-1' }]);
    expect(rows(refund!)).toEqual([
      ['512000', 0, 2_500],
      ['411000', 2_500, 0],
    ]);
    expect(refund!.lines[0]!.label).toMatch(/^Remboursement F-1/);
    expect(rows(avoir!)).toEqual([
      ['512000', 0, 1_200],
      ['411000', 1_200, 0],
    ]);
  });

  it('follows the sales journal in the FEC, EcritureNum running on, every entry balanced', async () => {
    const sales = await fecEntries(org.db, org.org.id, month);
    const all = numbered(sales, paymentEntries(await periodPayments(org.db, org.org.id, month)));
    expect(all.map((e) => e.number)).toEqual(all.map((_, i) => String(i + 1)));
    expect(all.map((e) => e.journalCode)).toEqual([...sales.map(() => 'VE'), 'BQ', 'BQ']);
    expect(all.every(balanced)).toBe(true);
    const { content } = fecFile(all, { siren: '732829320', closingDate: month.to });
    expect(content.split('\r\n').filter((r) => r.startsWith('BQ\tBanque\t'))).toHaveLength(4);
    // The client account nets to what is still owed: 43 754 + 30 414 − 50 000.
    const client = all.flatMap((e) => e.lines).filter((l) => l.account === '411000');
    expect(client.reduce((s, l) => s + l.debit - l.credit, 0)).toBe(24_168);
  });
});

describe('the period presets', () => {
  it('are Paris calendar months, quarters and years', () => {
    const today = '2026-11-15';
    expect(presetPeriod('this-month', today)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetPeriod('last-month', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetPeriod('this-quarter', today)).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(presetPeriod('last-quarter', today)).toEqual({ from: '2026-07-01', to: '2026-09-30' });
    expect(presetPeriod('this-year', today)).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(presetPeriod('last-year', today)).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    // Across a year: in January, last month and last quarter are in the year before; February of a leap year.
    expect(presetPeriod('last-month', '2027-01-10')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetPeriod('last-quarter', '2027-01-10')).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(presetPeriod('this-month', '2028-02-03')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(presetOf({ from: '2026-07-01', to: '2026-09-30' }, today)).toBe('last-quarter');
    expect(presetOf({ from: '2026-07-01', to: '2026-09-29' }, today)).toBeNull();
  });

  it('start the quarter on 1 October at 00:00 in Paris, when it is still 30 September in UTC', () => {
    const justAfter = parisInstant('2026-10-01', 0, 0, 30); // 2026-09-30T22:00:30Z
    expect(justAfter.toISOString()).toBe('2026-09-30T22:00:30.000Z');
    expect(presetPeriod('this-quarter', todayParis(justAfter))).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    const justBefore = parisInstant('2026-09-30', 23, 59, 59);
    expect(presetPeriod('this-quarter', todayParis(justBefore))).toEqual({ from: '2026-07-01', to: '2026-09-30' });
    // New Year in Paris is 23:00 UTC on 31 December.
    expect(presetPeriod('last-year', todayParis(new Date('2026-12-31T23:30:00Z')))).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });
});
