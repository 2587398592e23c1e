import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { billingContext, line, withoutTriggers } from '@/lib/domain/documents/testing';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { currentMonth, DEFAULT_EXPORT_SETTINGS, FEC_COLUMNS, type FecEntry, fecEntries, fecFile, getExportSettings, saveExportSettings } from '.';

type Api = Awaited<ReturnType<typeof billingContext>>;
type Doc = { id: string; number: string; type: string; total_ht: number; total_tva: number; total_ttc: number; issue_date: string };

let org: TestOrg;
let api: Api;
const docs = {} as Record<'twoRates' | 'deposit' | 'final' | 'credit' | 'cancelled' | 'offset' | 'old' | 'draft' | 'stranger', Doc>;
const today = todayParis();
const month = currentMonth(today);
/** A day of the month before the current one, where one invoice is moved. */
const lastMonth = `${Number(month.from.slice(0, 4)) - (month.from.slice(5, 7) === '01' ? 1 : 0)}-${month.from.slice(5, 7) === '01' ? '12' : String(Number(month.from.slice(5, 7)) - 1).padStart(2, '0')}-15`;

beforeAll(async () => {
  org = await createTestOrg();
  api = (await completeSeller(org)) as Api;
  const client = (await api.contact({ company: 'Client SARL' })).id;
  const other = (await api.contact({ company: 'Autre Client SAS', siret: '73282932000074' })).id;
  const done = async (p: ReturnType<Api['create']>, what: string) => api.expectStatus(await p, 201, what) as Doc;
  const finalize = async (id: string) => api.expectStatus(await api.finalize(id), 200, 'finalize') as Doc;

  // Two VAT rates and a discount: 1 000 € + 2 × 100 € at 5.5 %, 50 € off at 20 %.
  docs.twoRates = await api.issued({
    type: 'facture',
    contact_id: client,
    items: [line('Mobilier', '1', 100_000, '20'), line('Livres', '2', 10_000, '5.5'), { kind: 'discount', description: 'Remise', unit_price: 5_000, vat_rate: '20' }],
  });
  // A quote, a 30 % deposit on it, and the final invoice that deducts it.
  const quote = await api.issued({ type: 'devis', contact_id: other, items: [line('Chantier', '1', 200_000, '20'), line('Guide', '1', 3_333, '5.5')] });
  docs.deposit = await finalize((await done(api.deposit(quote.id, { percentage: '30' }), 'deposit')).id);
  docs.final = await finalize((await done(api.convert(quote.id), 'convert')).id);
  // A partial credit note on the first invoice.
  docs.credit = await finalize((await done(api.creditNote(docs.twoRates.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 10_000, '20')] }), 'credit')).id);
  // A cancelled invoice and the credit note its cancellation issued.
  docs.cancelled = await api.issued({ type: 'facture', contact_id: client, items: [line('Erreur', '3', 1_234, '10')] });
  api.expectStatus(await api.cancel(docs.cancelled.id), 200, 'cancel');
  const [offset] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, docs.cancelled.id));
  docs.offset = { ...offset!, number: offset!.number! } as Doc;
  // Issued last month (moved there by hand: finalization issues today).
  docs.old = await api.issued({ type: 'facture', contact_id: client, items: [line('Ancien', '1', 7_000, '20')] });
  await withoutTriggers(org.db, async (tx) => {
    await tx.update(documents).set({ issue_date: lastMonth }).where(eq(documents.id, docs.old.id));
  });
  // A draft: no entry.
  docs.draft = await api.draft({ type: 'facture', contact_id: client, items: [line('Brouillon', '1', 9_900, '20')] });
  api.expectStatus(await api.pay(docs.twoRates.id, { amount: 20_000, method: 'bank_transfer', reference: 'VIR 42' }), 201, 'pay');

  // Another org's invoice, issued today.
  const stranger = await createTestOrg();
  const theirs = await (await completeSeller(stranger)).issued({
    type: 'facture',
    contact_id: (await (await billingContext(stranger)).contact()).id,
    items: [line('Pas à nous', '1', 55_500, '20')],
  });
  docs.stranger = theirs as Doc;
});

const sum = (entries: FecEntry[], pick: (l: FecEntry['lines'][number]) => number, account?: string) =>
  entries.flatMap((e) => e.lines.filter((l) => !account || l.account.startsWith(account))).reduce((s, l) => s + pick(l), 0);

describe('the sales journal (fecEntries)', () => {
  it('has one balanced entry per invoice, deposit and credit note issued in the period, none of a draft, a quote or another org', async () => {
    const entries = await fecEntries(org.db, org.org.id, month);
    const ids = entries.map((e) => e.documentId);
    expect(new Set(ids)).toEqual(new Set([docs.twoRates, docs.deposit, docs.final, docs.credit, docs.cancelled, docs.offset].map((d) => d!.id)));
    expect(entries.map((e) => e.number)).toEqual(entries.map((_, i) => String(i + 1)));
    for (const e of entries) {
      expect(sum([e], (l) => l.debit), e.pieceRef).toBe(sum([e], (l) => l.credit));
      for (const l of e.lines) {
        expect(l.debit >= 0 && l.credit >= 0 && (l.debit === 0 || l.credit === 0)).toBe(true);
        expect(Number.isInteger(l.debit) && Number.isInteger(l.credit)).toBe(true);
      }
    }
  });

  it('debits the client with the total, credits revenue and VAT per rate; a credit note the other way round', async () => {
    const entries = await fecEntries(org.db, org.org.id, month);
    const of = (d: Doc) => entries.find((e) => e.documentId === d.id)!;
    const invoice = of(docs.twoRates!);
    // 950 € at 20 % (190 € VAT) and 200 € at 5.5 % (11 € VAT).
    // Services (the fixture's nature): 706200 for 20 %, 706055 for 5.5 %; VAT 445711 and 445713.
    expect(invoice.lines.map((l) => [l.account, l.debit, l.credit])).toEqual([
      ['411000', 135_100, 0],
      ['706200', 0, 95_000],
      ['706055', 0, 20_000],
      ['445711', 0, 19_000],
      ['445713', 0, 1_100],
    ]);
    expect(invoice.lines.map((l) => l.accountLabel)).toEqual(['Clients', 'Prestations de services TVA 20 %', 'Prestations de services TVA 5,5 %', 'TVA collectée 20 %', 'TVA collectée 5,5 %']);
    expect(invoice.lines[0]).toMatchObject({ auxAccount: expect.stringMatching(/^C[0-9A-F]{16}$/), auxLabel: 'Client SARL' });
    expect(invoice.pieceRef).toBe(docs.twoRates!.number);
    expect(of(docs.credit!).lines.map((l) => [l.account, l.debit, l.credit])).toEqual([
      ['411000', 0, 12_000],
      ['706200', 10_000, 0],
      ['445711', 2_000, 0],
    ]);
    // The cancellation: the invoice, then its offsetting credit note, cancelling each other out account by account.
    const pair = [of(docs.cancelled!), of(docs.offset!)];
    expect(of(docs.cancelled!).lines.map((l) => l.account)).toEqual(['411000', '706100', '445712']);
    for (const account of ['411000', '706100', '445712']) expect(sum(pair, (l) => l.debit - l.credit, account)).toBe(0);
  });

  it('sums, account by account, to the documents’ totals', async () => {
    const entries = await fecEntries(org.db, org.org.id, month);
    const journal = [docs.twoRates, docs.deposit, docs.final, docs.credit, docs.cancelled, docs.offset].map((d) => d!);
    const signed = (pick: (d: Doc) => number) => journal.reduce((s, d) => s + (d.type === 'avoir' ? -pick(d) : pick(d)), 0);
    expect(sum(entries, (l) => l.debit - l.credit, '411000')).toBe(signed((d) => d.total_ttc));
    expect(sum(entries, (l) => l.credit - l.debit, '70')).toBe(signed((d) => d.total_ht));
    expect(sum(entries, (l) => l.credit - l.debit, '4457')).toBe(signed((d) => d.total_tva));
    for (const d of journal) {
      const e = entries.find((x) => x.documentId === d.id)!;
      expect(e.lines.find((l) => l.account === '411000')!.debit + e.lines.find((l) => l.account === '411000')!.credit).toBe(d.total_ttc);
    }
  });

  it('keeps to the period, and writes to the org’s own accounts', async () => {
    expect(await fecEntries(org.db, org.org.id, { from: lastMonth, to: lastMonth })).toEqual([
      expect.objectContaining({ documentId: docs.old.id, date: lastMonth, number: '1' }),
    ]);
    expect(await fecEntries(org.db, org.org.id, { from: '2000-01-01', to: '2000-12-31' })).toEqual([]);
    const settings = { ...DEFAULT_EXPORT_SETTINGS, client_account: '411100', services_20: '706120', vat_20: '445720', journal_code: 'VT', journal_label: 'Journal des ventes' };
    expect(await getExportSettings(org.db, org.org.id)).toMatchObject({ client_account: '411000', journal_code: 'VE' });
    await saveExportSettings(org.db, org.org.id, settings);
    expect(await getExportSettings(org.db, org.org.id)).toEqual(settings);
    const [entry] = await fecEntries(org.db, org.org.id, { from: lastMonth, to: lastMonth }, await getExportSettings(org.db, org.org.id));
    expect(entry!.lines.map((l) => l.account)).toEqual(['411100', '706120', '445720']);
    expect(entry).toMatchObject({ journalCode: 'VT', journalLabel: 'Journal des ventes' });
    await expect(saveExportSettings(org.db, org.org.id, { ...settings, client_account: '512000' })).rejects.toThrow(/411/);
    await expect(saveExportSettings(org.db, org.org.id, { ...settings, vat_55: '706055' })).rejects.toThrow(/4457/);
    await saveExportSettings(org.db, org.org.id, DEFAULT_EXPORT_SETTINGS);
  });
});

describe('the FEC file (fecFile)', () => {
  it('follows art. A47 A-1 LPF: 18 columns in order, tabs, YYYYMMDD dates in the period, decimal commas, balanced entries', async () => {
    const entries = await fecEntries(org.db, org.org.id, month);
    const { name, content } = fecFile(entries, { siren: '732829320', closingDate: month.to });
    expect(name).toBe(`732829320FEC${month.to.replaceAll('-', '')}.txt`);
    const [header, ...rows] = content.replace(/\r\n$/, '').split('\r\n').map((r) => r.split('\t'));
    expect(header).toEqual([...FEC_COLUMNS]);
    expect(header).toEqual([
      'JournalCode', 'JournalLib', 'EcritureNum', 'EcritureDate', 'CompteNum', 'CompteLib', 'CompAuxNum', 'CompAuxLib', 'PieceRef',
      'PieceDate', 'EcritureLib', 'Debit', 'Credit', 'EcritureLet', 'DateLet', 'ValidDate', 'Montantdevise', 'Idevise',
    ]);
    expect(rows.length).toBe(entries.reduce((n, e) => n + e.lines.length, 0));
    const col = (r: string[], c: (typeof FEC_COLUMNS)[number]) => r[FEC_COLUMNS.indexOf(c)]!;
    const cents = (s: string) => {
      expect(s).toMatch(/^\d+,\d{2}$/);
      return Number(s.replace(',', ''));
    };
    const balance = new Map<string, number>();
    const ymd = (d: string) => d.replaceAll('-', '');
    for (const r of rows) {
      expect(r).toHaveLength(18);
      expect(col(r, 'JournalCode')).toBe('VE');
      for (const c of ['EcritureDate', 'PieceDate', 'ValidDate'] as const) expect(col(r, c)).toMatch(/^\d{8}$/);
      expect(col(r, 'EcritureDate') >= ymd(month.from) && col(r, 'EcritureDate') <= ymd(month.to)).toBe(true);
      expect(col(r, 'ValidDate') >= col(r, 'EcritureDate')).toBe(true);
      const n = col(r, 'EcritureNum');
      balance.set(n, (balance.get(n) ?? 0) + cents(col(r, 'Debit')) - cents(col(r, 'Credit')));
      expect(col(r, 'CompteNum')).toMatch(/^\d{6}$/);
    }
    expect([...balance.values()].every((b) => b === 0)).toBe(true);
    // The other org's 555 € + 111 € VAT (its numbers are its own: they may be ours too).
    expect(content).not.toMatch(/\t(555|111|666),00\t/);
    expect(content).toContain('1351,00');
  });

  it('refuses a name without a SIREN, and keeps tabs and line breaks out of the fields', () => {
    expect(() => fecFile([], { siren: '', closingDate: '2026-12-31' })).toThrow(/SIREN/);
    const entry: FecEntry = {
      journalCode: 'VE',
      journalLabel: 'Ventes',
      number: '1',
      date: '2026-03-02',
      pieceRef: 'FAC-1',
      validDate: '2026-03-02',
      documentId: 'x',
      lines: [
        { account: '411000', accountLabel: 'Clients', auxAccount: 'C1', auxLabel: 'A\tB\nC', label: 'x', debit: 123_456_789, credit: 0 },
        { account: '706000', accountLabel: 'Ventes', auxAccount: '', auxLabel: '', label: 'x', debit: 0, credit: 123_456_789 },
      ],
    };
    const lines = fecFile([entry], { siren: '732829320', closingDate: '2026-12-31' }).content.split('\r\n');
    expect(lines[1]!.split('\t')).toEqual(['VE', 'Ventes', '1', '20260302', '411000', 'Clients', 'C1', 'A B C', 'FAC-1', '20260302', 'x', '1234567,89', '0,00', '', '', '20260302', '', '']);
  });
});
