import { beforeAll, describe, expect, it } from 'vitest';
import { type billingContext, line } from '@/lib/domain/documents/testing';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { currentMonth, LINES_CSV_HEADER, linesCsv, PAYMENTS_CSV_HEADER, paymentsCsv } from '.';

type Api = Awaited<ReturnType<typeof billingContext>>;

let org: TestOrg;
let stranger: TestOrg;
let invoice: { id: string; number: string };
let credit: { number: string };
const month = currentMonth();

const read = (text: string) => {
  expect(text.startsWith('\uFEFF')).toBe(true);
  // No field here holds a semicolon or a quote: the rows split plainly.
  return text
    .slice(1)
    .replace(/\r\n$/, '')
    .split('\r\n')
    .map((r) => r.split(';'));
};

beforeAll(async () => {
  org = await createTestOrg();
  const api = (await completeSeller(org)) as Api;
  const client = (await api.contact({ company: 'Client SARL' })).id;
  invoice = await api.issued({
    type: 'facture',
    contact_id: client,
    items: [line('Conseil', '1.5', 40_000, '20', { unit: 'DAY' }), line('Livre', '1', 2_000, '5.5'), { kind: 'discount', description: 'Remise', unit_price: 1_000, vat_rate: '20' }],
  });
  credit = api.expectStatus(await api.creditNote(invoice.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 5_000, '20')] }), 201, 'credit');
  credit = api.expectStatus(await api.finalize((credit as unknown as { id: string }).id), 200, 'finalize credit');
  await api.draft({ type: 'facture', contact_id: client, items: [line('Brouillon', '1', 100, '20')] });
  api.expectStatus(await api.pay(invoice.id, { amount: 12_345, method: 'cheque', reference: 'CHQ 0042' }), 201, 'pay');
  stranger = await createTestOrg();
  const theirs = (await completeSeller(stranger)) as Api;
  const inv = await theirs.issued({ type: 'facture', contact_id: (await theirs.contact()).id, items: [line('Pas à nous', '1', 55_500, '20')] });
  theirs.expectStatus(await theirs.pay(inv.id, { amount: 999, method: 'cash' }), 201, 'their payment');
});

describe('the lines CSV', () => {
  it('has one row per line of each document issued in the period, credit notes negative, no draft, no other org', async () => {
    const [header, ...rows] = read(await linesCsv(org.db, org.org.id, month));
    expect(header).toEqual([...LINES_CSV_HEADER]);
    expect(rows.map((r) => [r[0], r[1], r[5], r[6], r[7], r[8], r[9], r[10], r[12], r[13], r[14]])).toEqual([
      [invoice.number, 'Facture', 'Produit', 'Conseil', '1,5', 'DAY', '400,00', '20,00', '600,00', '120,00', '720,00'],
      [invoice.number, 'Facture', 'Produit', 'Livre', '1', '', '20,00', '5,50', '20,00', '1,10', '21,10'],
      [invoice.number, 'Facture', 'Remise', 'Remise', '-1', '', '10,00', '20,00', '-10,00', '-2,00', '-12,00'],
      [credit.number, 'Avoir', 'Produit', 'Geste', '1', '', '50,00', '20,00', '-50,00', '-10,00', '-60,00'],
    ]);
    expect(rows.every((r) => r[3] === 'Client SARL')).toBe(true);
    expect(read(await linesCsv(org.db, org.org.id, { from: '2000-01-01', to: '2000-01-31' }))).toHaveLength(1);
  });
});

describe('the payments CSV', () => {
  it('lists the payments received in the period with their document', async () => {
    const [header, ...rows] = read(await paymentsCsv(org.db, org.org.id, month));
    expect(header).toEqual([...PAYMENTS_CSV_HEADER]);
    expect(rows).toEqual([[expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), invoice.number, 'Facture', 'Client SARL', 'Chèque', '123,45', 'CHQ 0042']]);
    expect(read(await paymentsCsv(org.db, org.org.id, { from: '2000-01-01', to: '2000-01-31' }))).toHaveLength(1);
  });
});
