import { describe, expect, it, vi } from 'vitest';
import { checkDiscounts, computeTotals } from '@/lib/platform/money';
import { discountAmount, emptyLine, formFromDocument, type LineDraft, liveTotals, toPayload } from './editor-model';

const line = (over: Partial<LineDraft>): LineDraft => ({ ...emptyLine(), ...over });
const percent = (discount_percent: string, vat_rate = '20.00') => line({ kind: 'discount', description: 'Remise', quantity: '', discount_percent, vat_rate });

describe('a discount given as a percentage (issue 35, item 15)', () => {
  it('takes the percentage of its VAT group’s subtotal, rounded half up once, to the cent', () => {
    const lines = [
      line({ description: 'Conseil', quantity: '3', unit_price: '333,33', vat_rate: '20.00' }), // 999,99 €
      line({ description: 'Livre', quantity: '1', unit_price: '40', vat_rate: '5.50' }),
      percent('12,5'),
    ];
    // 12,5 % × 999,99 € = 124,99875 € → 125,00 € (half up); the 5,5 % line is not in the base.
    expect(discountAmount(lines, lines[2]!)).toBe(12_500);
    const live = liveTotals(lines);
    expect(live.lines).toEqual([99_999, 4_000, -12_500]);
    // The totals are lib/platform/money's over the amount: what the server computes for the payload.
    expect(live.totals).toEqual(
      computeTotals([
        { kind: 'product', quantity: '3', unit_price: 33_333, vat_rate: '20.00', vat_category: 'S' },
        { kind: 'product', quantity: '1', unit_price: 4_000, vat_rate: '5.50', vat_category: 'S' },
        { kind: 'discount', quantity: '-1', unit_price: 12_500, vat_rate: '20.00', vat_category: 'S' },
      ]),
    );
    expect(live.totals).toMatchObject({ total_ht: 91_499, total_tva: 17_720, total_ttc: 109_219 });
  });

  it('sends the amount computed, as the API’s discount line (quantity -1, a positive unit price)', () => {
    const form = formFromDocument({
      contact_id: 'c',
      issue_date: '2026-12-01',
      due_date: null,
      validity_date: null,
      service_date: null,
      title: null,
      description: null,
      notes: null,
      payment_terms: null,
      payment_method: null,
      discount_terms: null,
      execution_timeline: null,
      operation_nature: null,
      vat_exigibility: null,
      deposit_request_percentage: null,
      payment_plan_kind: 'none',
      payment_plan_config: null,
      delivery_address: null,
      items: [],
    });
    form.lines = [line({ description: 'Pose', quantity: '2', unit_price: '1 234,56', vat_rate: '10.00' }), percent('7', '10.00')];
    const { payload, errors } = toPayload(form, 'create');
    expect(errors).toEqual({});
    // 7 % × 2 469,12 € = 172,8384 € → 172,84 €.
    expect((payload.items as unknown[])[1]).toEqual({ kind: 'discount', description: 'Remise', details: null, unit: null, unit_price: 17_284, vat_rate: '10.00', product_id: null });
  });

  it('100 % takes the whole subtotal and no more: the server’s check passes', () => {
    const lines = [line({ quantity: '1,5', unit_price: '99,99', vat_rate: '20.00' }), percent('100')];
    const amount = discountAmount(lines, lines[1]!);
    expect(amount).toBe(14_999); // 149,985 € → 149,99 €, the line's own rounded net.
    expect(checkDiscounts([
      { kind: 'product', quantity: '1.5', unit_price: 9_999, vat_rate: '20.00', vat_category: 'S' },
      { kind: 'discount', quantity: '-1', unit_price: amount!, vat_rate: '20.00', vat_category: 'S' },
    ])).toEqual([]);
  });

  it('a percentage that is not one (above 100, zero, text) gives no amount and a French error on the amount', () => {
    for (const typed of ['101', '0', 'dix', '-5']) {
      const lines = [line({ quantity: '1', unit_price: '100' }), percent(typed)];
      expect(discountAmount(lines, lines[1]!)).toBeNull();
      const form = { ...formFromDocument({ contact_id: 'c', issue_date: '2026-12-01', payment_plan_kind: 'none', payment_plan_config: null, delivery_address: null } as never), lines };
      expect(toPayload(form, 'create').errors).toEqual({ 'items.1.unit_price': 'Pourcentage entre 0 et 100, par exemple 10 ou 12,5.' });
    }
  });

  it('an amount typed stays the amount (no percentage)', () => {
    const lines = [line({ quantity: '1', unit_price: '100' }), line({ kind: 'discount', quantity: '', unit_price: '15' })];
    expect(liveTotals(lines).lines).toEqual([10_000, -1_500]);
  });
});

describe('the lines’ React keys', () => {
  it('a line added in the browser never takes the key of a line the server rendered (the duplicate-key warning)', async () => {
    // The page builds the first lines on the server; the browser runs its own copy of the module and adds lines.
    vi.resetModules();
    const server = await import('./editor-model');
    const rendered = server.linesFromItems([
      { kind: 'product', description: 'A', details: null, quantity: '1', unit: null, unit_price: 100, vat_rate: '20.00', vat_category: 'S' },
      { kind: 'product', description: 'B', details: null, quantity: '1', unit: null, unit_price: 100, vat_rate: '20.00', vat_category: 'S' },
    ]);
    vi.resetModules();
    const browser = await import('./editor-model');
    const added = [browser.emptyLine('discount'), browser.emptyLine(), browser.emptyLine('discount')];
    const keys = [...rendered, ...added].map((l) => l.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
