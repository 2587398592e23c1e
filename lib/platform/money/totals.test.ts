import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AmountOverflowError,
  checkDiscounts,
  computeTotals,
  defaultVatCategory,
  isDecimalString,
  lineTotalHt,
  normalizeQuantity,
  normalizeRate,
  percentOf,
  prorateGroups,
  roundHalfUp,
  type TotalsLine,
  type VatCategory,
} from './index';

/** Every expected figure below is computed by hand (shown in the comments), not by the code under test. */
const product = (quantity: string, unit_price: number, vat_rate: string, vat_category: VatCategory = 'S'): TotalsLine => ({
  kind: 'product',
  quantity,
  unit_price,
  vat_rate,
  vat_category,
});
const discount = (unit_price: number, vat_rate: string, vat_category: VatCategory = 'S'): TotalsLine => ({
  kind: 'discount',
  quantity: '-1',
  unit_price,
  vat_rate,
  vat_category,
});

describe('computeTotals (EN 16931)', () => {
  it('totals several VAT rates, one VAT rounding per group', () => {
    const totals = computeTotals([
      product('3', 1250, '20'), // 37.50
      product('2.5', 899, '5.5'), // 22.475 → 22.48
      product('1', 10000, '10'), // 100.00
      product('4', 2500, '0', 'E'), // 100.00, exempt
    ]);
    expect(totals.lines).toEqual([
      { total_ht: 3750, total_ttc: 4500 },
      { total_ht: 2248, total_ttc: 2372 }, // 22.48 + 1.2364 → 1.24
      { total_ht: 10000, total_ttc: 11000 },
      { total_ht: 10000, total_ttc: 10000 },
    ]);
    expect(totals.groups).toEqual([
      { vat_category: 'S', vat_rate: '20.00', subtotal: 3750, discounts: 0, base: 3750, vat: 750 },
      { vat_category: 'S', vat_rate: '10.00', subtotal: 10000, discounts: 0, base: 10000, vat: 1000 },
      { vat_category: 'S', vat_rate: '5.50', subtotal: 2248, discounts: 0, base: 2248, vat: 124 }, // 123.64 → 124
      { vat_category: 'E', vat_rate: '0.00', subtotal: 10000, discounts: 0, base: 10000, vat: 0 },
    ]);
    // HT 37.50 + 22.48 + 100 + 100 = 259.98; TVA 7.50 + 10.00 + 1.24 = 18.74
    expect(totals).toMatchObject({ total_ht: 25998, total_tva: 1874, total_ttc: 27872 });
  });

  it('rounds VAT once per group, not per line (the order BR-CO-14 validates)', () => {
    // Per line: 0.33 × 5.5 % = 0.01815 → 0.02, three times 0.06. Per group: 0.99 × 5.5 % = 0.05445 → 0.05.
    const totals = computeTotals([product('1', 33, '5.5'), product('1', 33, '5.5'), product('1', 33, '5.5')]);
    expect(totals.groups).toHaveLength(1);
    expect(totals).toMatchObject({ total_ht: 99, total_tva: 5, total_ttc: 104 });
    expect(totals.lines.map((l) => l.total_ttc)).toEqual([35, 35, 35]); // informative only
  });

  it('rounds halves up (away from zero), never to even, at line and group level', () => {
    expect(lineTotalHt('0.5', 1)).toBe(1); // 0.005 € → 0.01 €
    expect(lineTotalHt('2.5', 1)).toBe(3); // banker's rounding would give 2
    expect(lineTotalHt('1.255', 100)).toBe(126); // binary floats give 125.49999… → 125
    expect(lineTotalHt('0.1', 3)).toBe(0); // 0.003 € → 0.00 €
    expect(lineTotalHt('-1', 1999)).toBe(-1999);
    expect(roundHalfUp('-0.5').toNumber()).toBe(-1);
    // 11.00 € at 5.5 % = 0.605 € → 0.61 € (to-even would give 0.60)
    expect(computeTotals([product('1', 1100, '5.5')])).toMatchObject({ total_ht: 1100, total_tva: 61, total_ttc: 1161 });
    // 0.05 € at 10 % = 0.005 € → 0.01 €
    expect(computeTotals([product('1', 5, '10')])).toMatchObject({ total_tva: 1, total_ttc: 6 });
    // 0.02 € at 20 % = 0.004 € → 0.00 €
    expect(computeTotals([product('1', 2, '20')])).toMatchObject({ total_tva: 0, total_ttc: 2 });
    // 0.75 h at 0.99 €/h = 0.7425 € → 0.74 €
    expect(lineTotalHt('0.75', 99)).toBe(74);
  });

  it('nets discount lines off in their own group only', () => {
    const totals = computeTotals([product('1', 1000, '20'), product('1', 500, '10'), discount(200, '20')]);
    expect(totals.lines[2]).toEqual({ total_ht: -200, total_ttc: -240 });
    expect(totals.groups).toEqual([
      { vat_category: 'S', vat_rate: '20.00', subtotal: 1000, discounts: 200, base: 800, vat: 160 },
      { vat_category: 'S', vat_rate: '10.00', subtotal: 500, discounts: 0, base: 500, vat: 50 },
    ]);
    expect(totals).toMatchObject({ total_ht: 1300, total_tva: 210, total_ttc: 1510 });
  });

  it('groups equal rates written differently, and keeps categories apart at the same rate', () => {
    const totals = computeTotals([product('1', 100, '20'), product('1', 100, '20.0'), product('1', 100, '0', 'E'), product('1', 100, '0', 'AE')]);
    expect(totals.groups.map((g) => [g.vat_category, g.vat_rate, g.base])).toEqual([
      ['S', '20.00', 200],
      ['AE', '0.00', 100],
      ['E', '0.00', 100],
    ]);
  });

  it('answers zeros for an empty document', () => {
    expect(computeTotals([])).toEqual({ lines: [], groups: [], total_ht: 0, total_tva: 0, total_ttc: 0 });
  });

  it('refuses amounts that would not stay exact integers', () => {
    expect(() => computeTotals([product('1000000000', 10_000_000, '20')])).toThrow(AmountOverflowError);
    const caught = (() => {
      try {
        computeTotals([product('1', 1, '20'), product('99999999999', 100_000, '20')]);
      } catch (err) {
        return err;
      }
    })();
    expect(caught).toBeInstanceOf(AmountOverflowError);
    expect((caught as AmountOverflowError).lineIndex).toBe(1);
  });
});

describe('checkDiscounts', () => {
  it('accepts discounts up to their group subtotal', () => {
    expect(checkDiscounts([product('2', 500, '20'), discount(600, '20'), discount(400, '20')])).toEqual([]);
  });

  it('reports the discount that exceeds its group subtotal', () => {
    expect(checkDiscounts([product('1', 1000, '20'), discount(600, '20'), discount(500, '20')])).toEqual([
      { index: 2, field: 'unit_price', message: expect.stringContaining('exceed') },
    ]);
  });

  it('reports a discount with no line of its rate and category to reduce', () => {
    expect(checkDiscounts([product('1', 1000, '20'), discount(100, '10')])).toEqual([
      { index: 1, field: 'vat_rate', message: expect.stringContaining('10.00 %') },
    ]);
    expect(checkDiscounts([product('1', 1000, '0', 'E'), discount(100, '0', 'Z')])).toEqual([
      { index: 1, field: 'vat_rate', message: expect.stringContaining('category Z') },
    ]);
  });
});

describe('deposits prorated per VAT rate', () => {
  it('takes the percentage of each group base, then the deposit and the final invoice add up', () => {
    const quote = [product('3', 1250, '20'), product('2.5', 899, '5.5'), product('1', 10000, '10')];
    const q = computeTotals(quote); // HT 159.98, TVA 18.74, TTC 178.72
    expect(q).toMatchObject({ total_ht: 15998, total_tva: 1874, total_ttc: 17872 });

    const shares = prorateGroups(q.groups, '30');
    // 30 % of 37.50 = 11.25; of 100.00 = 30.00; of 22.48 = 6.744 → 6.74
    expect(shares).toEqual([
      { vat_category: 'S', vat_rate: '20.00', amount: 1125 },
      { vat_category: 'S', vat_rate: '10.00', amount: 3000 },
      { vat_category: 'S', vat_rate: '5.50', amount: 674 },
    ]);
    const deposit = computeTotals(shares.map((s) => product('1', s.amount, s.vat_rate, s.vat_category)));
    // TVA 2.25 + 3.00 + 0.3707 → 0.37
    expect(deposit).toMatchObject({ total_ht: 4799, total_tva: 562, total_ttc: 5361 });

    const final = computeTotals([...quote, ...shares.map((s) => discount(s.amount, s.vat_rate, s.vat_category))]);
    // 20 %: 26.25 → 5.25; 10 %: 70.00 → 7.00; 5.5 %: 15.74 → 0.8657 → 0.87
    expect(final).toMatchObject({ total_ht: 11199, total_tva: 1312, total_ttc: 12511 });
    expect(deposit.total_ttc + final.total_ttc).toBe(q.total_ttc);
  });

  it('rounds each share half up and drops empty groups', () => {
    expect(percentOf(1005, '50')).toBe(503); // 5.025 € → 5.03 €
    expect(percentOf(999, '33.33')).toBe(333); // 3.329667 → 3.33
    // 20 %: fully discounted (base 0); 10 %: 1.00 € → 0.10 €; 5.5 %: 0.01 € → 0.001 € → 0
    const groups = computeTotals([product('1', 1000, '20'), discount(1000, '20'), product('1', 100, '10'), product('1', 1, '5.5')]).groups;
    expect(prorateGroups(groups, '10')).toEqual([{ vat_category: 'S', vat_rate: '10.00', amount: 10 }]);
  });
});

describe('decimal helpers', () => {
  it('normalizes rates to two decimals and quantities to one spelling', () => {
    expect(normalizeRate('20')).toBe('20.00');
    expect(normalizeRate('5.5')).toBe('5.50');
    expect(normalizeRate('2.10')).toBe('2.10');
    expect(normalizeQuantity('1.50')).toBe('1.5');
    expect(normalizeQuantity('003')).toBe('3');
    expect(normalizeQuantity('0.0001')).toBe('0.0001');
  });

  it('tells plain decimal tokens from the rest', () => {
    for (const ok of ['1', '0.25', '-1', '10.', '.5']) expect(isDecimalString(ok), ok).toBe(true);
    for (const bad of ['1e3', '1,5', ' 1', 'NaN', 'Infinity', '', '1 000', '0x10']) expect(isDecimalString(bad), bad).toBe(false);
  });

  it('defaults the VAT category from the rate', () => {
    expect(defaultVatCategory('20')).toBe('S');
    expect(defaultVatCategory('0.00')).toBe('E');
  });
});

it('stays isomorphic: no Node built-in is imported by the money module (the editor runs it in the browser)', () => {
  const dir = import.meta.dirname;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    expect(source, file).not.toMatch(/from ['"](node:|fs|path|crypto)/);
  }
});
