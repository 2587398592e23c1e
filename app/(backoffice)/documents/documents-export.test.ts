import { beforeAll, describe, expect, it } from 'vitest';
import { line } from '@/lib/domain/documents/testing';
import { documentsToExport, paidByDocument, summarizeDocuments } from '@/lib/domain/documents';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { documentsCsv } from './documents-csv';
import { paymentState } from './labels';

/** The documents list's totals, "partiellement payée" chip and CSV export, on real documents of a test org. */
let org: TestOrg;
let other: TestOrg;
const ids: Record<string, string> = {};

beforeAll(async () => {
  org = await createTestOrg();
  const api = await completeSeller(org);
  const client = await api.contact({ company: 'Boulangerie Dupont', email: 'compta@dupont.fr' });
  const invoice = (items: ReturnType<typeof line>[], title: string) => ({ type: 'facture', contact_id: client.id, title, payment_method: 'bank_transfer', items });
  // 1 000,00 HT + 200,00 TVA; 300,00 paid of 1 200,00.
  const partial = (await api.issued(invoice([line('Pain; « spécial »', '10', 10_000)], 'Livraisons de novembre'))).id as string;
  ids.partial = partial;
  api.expectStatus(await api.pay(partial, { amount: 30_000, method: 'bank_transfer' }), 201, 'pay');
  // 500,00 HT + 100,00 TVA, fully paid.
  const paid = (await api.issued(invoice([line('Croissants', '100', 500)], 'Petit-déjeuner'))).id as string;
  ids.paid = paid;
  api.expectStatus(await api.pay(paid, { amount: 60_000, method: 'card' }), 201, 'pay');
  // A credit note of 100,00 HT on the first.
  const avoir = api.expectStatus(await api.creditNote(partial, { credit_reason_code: 'commercial_gesture', items: [line('Pain invendu', '1', 10_000)] }), 201, 'credit note');
  ids.avoir = (api.expectStatus(await api.finalize(avoir.id), 200, 'finalize') as { id: string }).id;
  ids.quote = (await api.issued({ type: 'devis', contact_id: client.id, items: [line('Pièce montée', '1', 25_000)] })).id;
  other = await createTestOrg();
}, 120_000);

describe('summarizeDocuments', () => {
  it('sums invoices with credit notes negative, quotes apart, over every document the filters select', async () => {
    expect(await summarizeDocuments(org.db, org.org.id, {})).toEqual({
      invoices: { count: 3, total_ht: 140_000, total_tva: 28_000, total_ttc: 168_000 },
      quotes: { count: 1, total_ht: 25_000, total_tva: 5_000, total_ttc: 30_000 },
    });
    expect((await summarizeDocuments(org.db, org.org.id, { type: 'avoir' })).invoices).toEqual({ count: 1, total_ht: -10_000, total_tva: -2_000, total_ttc: -12_000 });
    expect((await summarizeDocuments(org.db, org.org.id, { q: 'novembre' })).invoices.total_ttc).toBe(120_000);
  });

  it('sees nothing of another org', async () => {
    expect(await summarizeDocuments(other.db, other.org.id, {})).toEqual({
      invoices: { count: 0, total_ht: 0, total_tva: 0, total_ttc: 0 },
      quotes: { count: 0, total_ht: 0, total_tva: 0, total_ttc: 0 },
    });
    expect(await paidByDocument(other.db, other.org.id, [ids.partial!])).toEqual(new Map());
  });
});

describe('partially paid', () => {
  it('is derived from the payments: an issued invoice paid in part, not one paid in full nor a quote', async () => {
    const paid = await paidByDocument(org.db, org.org.id, Object.values(ids));
    expect(paid).toEqual(new Map([[ids.partial, 30_000], [ids.paid, 60_000]]));
    const docs = new Map((await documentsToExport(org.db, org.org.id, {})).map((d) => [d.id, d]));
    expect(paymentState(docs.get(ids.partial!)!, 30_000)).toBe('partiellement payée');
    expect(paymentState(docs.get(ids.paid!)!, 60_000)).toBeNull();
    expect(paymentState(docs.get(ids.quote!)!, 0)).toBeNull();
  });
});

describe('documentsCsv', () => {
  it('writes what the list shows, French conventions: BOM, semicolons, decimal commas, credit notes negative', async () => {
    const docs = await documentsToExport(org.db, org.org.id, {});
    const csv = documentsCsv(docs, await paidByDocument(org.db, org.org.id, docs.map((d) => d.id)));
    expect(csv.startsWith('\uFEFFNuméro;Type;Statut;Client;Émis le;Échéance / validité;Objet;Total HT;TVA;Total TTC;Payé;Reste dû\r\n')).toBe(true);
    const rows = csv.slice(1).trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(4);
    const byNumber = (number: string) => rows.find((r) => r.startsWith(`${number};`))!;
    const partial = docs.find((d) => d.id === ids.partial)!;
    expect(byNumber(partial.number!)).toMatch(/^[^;]+;Facture;partiellement payée;Boulangerie Dupont;\d\d\/\d\d\/\d{4};\d\d\/\d\d\/\d{4};Livraisons de novembre;1000,00;200,00;1200,00;300,00;900,00$/);
    const avoir = docs.find((d) => d.id === ids.avoir)!;
    expect(byNumber(avoir.number!)).toContain(';-100,00;-20,00;-120,00;;');
    const quote = docs.find((d) => d.id === ids.quote)!;
    expect(byNumber(quote.number!)).toMatch(/;250,00;50,00;300,00;;$/);
  });

  it('quotes a field holding the delimiter', async () => {
    const [quote] = await documentsToExport(org.db, org.org.id, { type: 'devis' });
    const csv = documentsCsv([{ ...quote!, contact_name: 'A; B' }], new Map());
    expect(csv).toContain(';"A; B";');
  });
});
