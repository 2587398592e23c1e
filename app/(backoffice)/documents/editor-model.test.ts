import { describe, expect, it } from 'vitest';
import { computeTotals } from '@/lib/platform/money';
import {
  type DraftForm,
  emptyLine,
  eurosToCents,
  formFromDocument,
  type LineDraft,
  lineErrors,
  lineFromProduct,
  liveTotals,
  moveLine,
  newForm,
  quantityText,
  termsFor,
  toPayload,
} from './editor-model';

const line = (over: Partial<LineDraft>): LineDraft => ({ ...emptyLine(), ...over });
const settings = { default_payment_terms: null, default_discount_terms: 'Pas d’escompte', default_validity_days: 30, default_vat_exigibility: 'debits' as const };

describe('amounts and quantities as typed', () => {
  it('reads euros the French way into exact cents', () => {
    expect(eurosToCents('1 200,50')).toBe(120_050);
    expect(eurosToCents('1\u202f200,5 €')).toBe(120_050);
    expect(eurosToCents('0.07')).toBe(7);
    expect(eurosToCents('49')).toBe(4_900);
  });

  it('refuses what is not an amount in euros', () => {
    for (const text of ['', '12,345', '-3', '12,5x', '1e3', '€']) expect(eurosToCents(text)).toBeNull();
  });

  it('turns a French quantity into the API decimal', () => {
    expect(quantityText('2,5')).toBe('2.5');
    expect(quantityText(' 1 000 ')).toBe('1000');
  });
});

describe('live totals', () => {
  it('are the totals lib/platform/money computes for the complete lines (per-group VAT, discounts)', () => {
    const lines = [
      line({ description: 'Parquet', quantity: '20', unit_price: '45,50', vat_rate: '10.00' }),
      line({ description: 'Déplacement', quantity: '1', unit_price: '150', vat_rate: '20.00' }),
      line({ kind: 'discount', description: 'Remise', quantity: '', unit_price: '10', vat_rate: '10.00' }),
    ];
    const live = liveTotals(lines);
    expect(live.lines).toEqual([91_000, 15_000, -1_000]);
    expect(live.totals).toMatchObject({ total_ht: 105_000, total_tva: 12_000, total_ttc: 117_000 });
    expect(live.totals).toEqual(
      computeTotals([
        { kind: 'product', quantity: '20', unit_price: 4_550, vat_rate: '10.00', vat_category: 'S' },
        { kind: 'product', quantity: '1', unit_price: 15_000, vat_rate: '20.00', vat_category: 'S' },
        { kind: 'discount', quantity: '-1', unit_price: 1_000, vat_rate: '10.00', vat_category: 'S' },
      ]),
    );
  });

  it('round the VAT once per group, not per line (3 × 0,33 € at 5,5 %)', () => {
    const lines = [1, 2, 3].map(() => line({ quantity: '1', unit_price: '0,33', vat_rate: '5.50' }));
    expect(liveTotals(lines).totals).toMatchObject({ total_ht: 99, total_tva: 5, total_ttc: 104 });
  });

  it('leave out a line still being typed, and show it without a total', () => {
    const live = liveTotals([line({ quantity: '2', unit_price: '10' }), line({ quantity: '2,', unit_price: '' }), line({ quantity: '0', unit_price: '5' })]);
    expect(live.lines).toEqual([2_000, null, null]);
    expect(live.totals?.total_ttc).toBe(2_400);
  });

  it('put a 0 % line in the exemption group unless another category is chosen', () => {
    const live = liveTotals([line({ quantity: '1', unit_price: '100', vat_rate: '0.00' }), line({ quantity: '1', unit_price: '50', vat_rate: '0.00', vat_category: 'AE' })]);
    expect(live.totals?.groups.map((g) => [g.vat_category, g.base])).toEqual([
      ['AE', 5_000],
      ['E', 10_000],
    ]);
  });

  it('leave out a line whose quantity the API would refuse: above 1e9, more than 4 decimals, not above 0', () => {
    const live = liveTotals([line({ quantity: '1000000001', unit_price: '1' }), line({ quantity: '1,00001', unit_price: '1' }), line({ quantity: '0', unit_price: '1' }), line({ quantity: '1000000000', unit_price: '1' })]);
    expect(live.lines).toEqual([null, null, null, 100_000_000_000]);
  });

  it('answer no totals when an amount is beyond what a document can carry', () => {
    expect(liveTotals([line({ quantity: '1000000000', unit_price: '10000000000' })]).totals).toBeNull();
  });
});

describe('lines', () => {
  it('move up and down within the list', () => {
    expect(moveLine(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveLine(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveLine(['a', 'b', 'c'], 0, 5)).toEqual(['b', 'c', 'a']);
  });

  it('take a product’s name, details, Rec 20 unit, price and rate, keeping the quantity typed', () => {
    const filled = lineFromProduct(
      { id: 'p1', name: 'Pose de parquet', description: 'Chêne massif', unit_code: 'MTK', unit_price_cents: 4_550, vat_rate: '10.00' },
      line({ quantity: '12' }),
    );
    expect(filled).toMatchObject({ description: 'Pose de parquet', details: 'Chêne massif', unit: 'MTK', unit_price: '45,50', vat_rate: '10.00', quantity: '12', product_id: 'p1' });
  });

  it('group the server’s errors by line', () => {
    const errors = { 'items.2.vat_rate': 'no line at 5.50 %', 'items.2.unit_price': 'required', 'items.12.quantity': 'x', contact_id: 'no such contact' };
    expect(lineErrors(errors, 2)).toEqual({ vat_rate: 'no line at 5.50 %', unit_price: 'required' });
    expect(lineErrors(errors, 1)).toEqual({});
  });
});

describe('terms and defaults', () => {
  it('take the contact’s terms first, then the settings’', () => {
    expect(termsFor({ default_payment_terms: 'à réception', default_discount_terms: null }, settings)).toEqual({
      payment_terms: 'à réception',
      discount_terms: 'Pas d’escompte',
    });
  });

  it('date a new invoice due by its terms and a new quote valid for the settings’ days', () => {
    expect(newForm('facture', '2026-11-22', { ...settings, default_payment_terms: '45 jours fin de mois' }).due_date).toBe('2027-01-31');
    expect(newForm('facture', '2026-11-22', settings).due_date).toBe('2026-12-22');
    expect(newForm('devis', '2026-11-22', settings)).toMatchObject({ validity_date: '2026-12-22', due_date: '' });
  });
});

describe('payload', () => {
  const form = (): DraftForm => ({
    ...newForm('devis', '2026-11-22', settings),
    contact_id: '01936d6e-0000-7000-8000-000000000001',
    title: ' Rénovation ',
    deposit_request_percentage: '30,5',
    payment_plan_kind: 'installments',
    payment_plan_value: '3',
    lines: [
      line({ description: 'Parquet', quantity: '2,5', unit: 'MTK', unit_price: '45,50', vat_rate: '10.00' }),
      line({ kind: 'discount', description: 'Remise', unit_price: '5', vat_rate: '10.00', unit: 'MTK' }),
    ],
  });

  it('sends cents, decimal quantities and trimmed texts, and leaves blanks to the server on create', () => {
    const { payload, errors } = toPayload(form(), 'create');
    expect(errors).toEqual({});
    expect(payload).toMatchObject({ title: 'Rénovation', deposit_request_percentage: '30.5', payment_plan_config: { count: 3 }, issue_date: '2026-11-22' });
    expect(payload).not.toHaveProperty('notes');
    expect(payload).not.toHaveProperty('delivery_address');
    expect(payload.items).toEqual([
      { kind: 'product', description: 'Parquet', details: null, quantity: '2.5', unit: 'MTK', unit_price: 4_550, vat_rate: '10.00', product_id: null },
      { kind: 'discount', description: 'Remise', details: null, unit: null, unit_price: 500, vat_rate: '10.00', product_id: null },
    ]);
  });

  it('clears blanks on update, and sends a delivery address only when one is typed', () => {
    const f = form();
    expect(toPayload(f, 'update').payload).toMatchObject({ notes: null, delivery_address: null, operation_nature: null });
    f.delivery = { name: '', address: '3 quai Rambaud', postal_code: '69002', city: 'Lyon', country: '' };
    expect(toPayload(f, 'update').payload.delivery_address).toEqual({ name: null, address: '3 quai Rambaud', postal_code: '69002', city: 'Lyon', country: 'FR' });
  });

  it('reports the amounts that are not euros under the API’s field names, without sending', () => {
    const f = form();
    f.lines[0]!.unit_price = '45,5x';
    f.lines[1]!.unit_price = '';
    expect(toPayload(f, 'create').errors).toEqual({ 'items.0.unit_price': 'Montant en euros, par exemple 1200 ou 49,90.', 'items.1.unit_price': 'required' });
  });

  it('reads a stored draft back into the same texts', () => {
    const stored = {
      contact_id: 'c1',
      issue_date: '2026-11-22',
      due_date: null,
      validity_date: '2026-12-22',
      service_date: null,
      title: 'Rénovation',
      description: null,
      notes: null,
      payment_terms: '30 jours',
      payment_method: null,
      discount_terms: null,
      execution_timeline: null,
      operation_nature: 'services' as const,
      vat_exigibility: null,
      deposit_request_percentage: '30.5',
      payment_plan_kind: 'deposit_then_balance' as const,
      payment_plan_config: { percentage: '30' },
      delivery_address: null,
      items: [
        { kind: 'product' as const, description: 'Parquet', details: null, quantity: '2.5', unit: 'MTK', unit_price: 4_550, vat_rate: '10.00', vat_category: 'S' as const, product_id: null },
        { kind: 'product' as const, description: 'Livre', details: null, quantity: '1', unit: null, unit_price: 2_000, vat_rate: '0.00', vat_category: 'Z' as const, product_id: null },
      ],
    };
    const f = formFromDocument(stored);
    expect(f).toMatchObject({ title: 'Rénovation', deposit_request_percentage: '30,5', payment_plan_value: '30', operation_nature: 'services', due_date: '' });
    expect(f.lines.map((l) => [l.quantity, l.unit_price, l.vat_category])).toEqual([
      ['2,5', '45,50', ''],
      ['1', '20', 'Z'],
    ]);
    expect(toPayload(f, 'update').payload.items).toMatchObject([
      { quantity: '2.5', unit_price: 4_550 },
      { quantity: '1', unit_price: 2_000, vat_category: 'Z' },
    ]);
  });
});
