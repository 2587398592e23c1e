import Decimal from 'decimal.js';

/**
 * Document totals per EN 16931, in the order its validation rules check (BR-CO-10, BR-S-08, BR-CO-14/15):
 * line net = round_half_up(quantity × unit_price) in cents; per VAT group (category, rate) base = Σ line nets
 * (discount lines net off in their group), VAT = round_half_up(base × rate / 100) once per group; document
 * totals are the sums of the groups. Decimal arithmetic only, never binary floats.
 *
 * Isomorphic (no node: imports): the back-office editor computes live totals with this same code.
 */

/** A private Decimal constructor: the global one's settings are left to whoever else uses decimal.js. */
export const Dec = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });
export type Dec = Decimal;

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** Amounts beyond this are refused: every total must stay an exact JavaScript integer (and fit int64). */
export const MAX_AMOUNT_CENTS = 10 ** 15;

export interface TotalsLine {
  kind: 'product' | 'discount';
  /** Decimal string; a discount's is "-1". */
  quantity: string;
  /** Cents, >= 0. */
  unit_price: number;
  /** Percentage decimal string, 0 to 100. */
  vat_rate: string;
  vat_category: VatCategory;
}

export interface LineTotals {
  total_ht: number;
  /** Informative only: the document's VAT is computed per group, not per line. */
  total_ttc: number;
}

export interface VatGroup {
  vat_category: VatCategory;
  /** Two decimals. */
  vat_rate: string;
  /** Σ of the group's product lines. */
  subtotal: number;
  /** Σ of the group's discount lines (positive). */
  discounts: number;
  /** subtotal − discounts: the taxable base (BT-116). */
  base: number;
  /** round_half_up(base × rate / 100) (BT-117). */
  vat: number;
}

export interface DocumentTotals {
  lines: LineTotals[];
  groups: VatGroup[];
  total_ht: number;
  total_tva: number;
  total_ttc: number;
}

export class AmountOverflowError extends RangeError {
  constructor(readonly lineIndex: number | null) {
    super(`Amount exceeds ${MAX_AMOUNT_CENTS} cents.`);
    this.name = 'AmountOverflowError';
  }
}

/** Rounds to an integer, halves away from zero (0.5 → 1, −0.5 → −1). */
export function roundHalfUp(value: Decimal.Value): Decimal {
  return new Dec(value).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
}

function toCents(value: Decimal, lineIndex: number | null): number {
  if (value.abs().greaterThan(MAX_AMOUNT_CENTS)) throw new AmountOverflowError(lineIndex);
  return value.toNumber();
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** True for a plain decimal token ("2", "0.25", "-1"): no exponent, no spaces, no thousands separators. */
export function isDecimalString(s: string): boolean {
  return DECIMAL.test(s);
}

/** Number of digits after the decimal point of a decimal string, trailing zeros ignored. */
export function decimalPlaces(s: string): number {
  return new Dec(s).decimalPlaces();
}

/** "20" → "20.00", "5.5" → "5.50": the form rates are stored, grouped and shown in. */
export function normalizeRate(rate: string): string {
  return new Dec(rate).toFixed(2);
}

/** "1.50" → "1.5", "03" → "3": one spelling per quantity. */
export function normalizeQuantity(quantity: string): string {
  return new Dec(quantity).toFixed();
}

/** S above 0 %; at 0 % the exemption is the default basis (E), since the rate alone cannot tell which one applies. */
export function defaultVatCategory(rate: string): VatCategory {
  return new Dec(rate).isZero() ? 'E' : 'S';
}

/** A line's net in cents: round_half_up(quantity × unit_price); negative for a discount. */
export function lineTotalHt(quantity: string, unitPrice: number, lineIndex: number | null = null): number {
  return toCents(roundHalfUp(new Dec(quantity).times(unitPrice)), lineIndex);
}

/** round_half_up(amount × rate / 100), for a group's VAT or a line's informative VAT. */
export function vatOf(amount: number, rate: string): number {
  return roundHalfUp(new Dec(amount).times(rate).dividedBy(100)).toNumber();
}

/** round_half_up(amount × percentage / 100): a share of an amount (deposits). */
export function percentOf(amount: number, percentage: string): number {
  return roundHalfUp(new Dec(amount).times(percentage).dividedBy(100)).toNumber();
}

const groupKey = (category: VatCategory, rate: string) => `${category}|${normalizeRate(rate)}`;

export function computeTotals(lines: readonly TotalsLine[]): DocumentTotals {
  const groups = new Map<string, VatGroup>();
  const lineTotals = lines.map((line, i) => {
    const total_ht = lineTotalHt(line.quantity, line.unit_price, i);
    const key = groupKey(line.vat_category, line.vat_rate);
    let group = groups.get(key);
    if (!group) {
      group = { vat_category: line.vat_category, vat_rate: normalizeRate(line.vat_rate), subtotal: 0, discounts: 0, base: 0, vat: 0 };
      groups.set(key, group);
    }
    if (total_ht < 0) group.discounts -= total_ht;
    else group.subtotal += total_ht;
    group.base += total_ht;
    return { total_ht, total_ttc: total_ht + vatOf(total_ht, line.vat_rate) };
  });
  let total_ht = 0;
  let total_tva = 0;
  for (const group of groups.values()) {
    group.vat = vatOf(group.base, group.vat_rate);
    total_ht += group.base;
    total_tva += group.vat;
  }
  if (Math.abs(total_ht) > MAX_AMOUNT_CENTS || Math.abs(total_tva) > MAX_AMOUNT_CENTS) throw new AmountOverflowError(null);
  const sorted = [...groups.values()].sort((a, b) => compareGroups(a, b));
  return { lines: lineTotals, groups: sorted, total_ht, total_tva, total_ttc: total_ht + total_tva };
}

/** Highest rate first, then category: the order a VAT breakdown is printed in. */
function compareGroups(a: VatGroup, b: VatGroup): number {
  const byRate = new Dec(b.vat_rate).comparedTo(a.vat_rate);
  return byRate !== 0 ? byRate : a.vat_category.localeCompare(b.vat_category);
}

export interface DiscountIssue {
  index: number;
  field: 'vat_rate' | 'unit_price';
  message: string;
}

/**
 * A discount must reduce lines of its own VAT group and, with the group's other discounts, may not exceed
 * the group's subtotal: the first discount line that breaks either rule is reported.
 */
export function checkDiscounts(lines: readonly TotalsLine[]): DiscountIssue[] {
  const subtotals = new Map<string, number>();
  lines.forEach((line, i) => {
    if (line.kind === 'product') {
      const key = groupKey(line.vat_category, line.vat_rate);
      subtotals.set(key, (subtotals.get(key) ?? 0) + lineTotalHt(line.quantity, line.unit_price, i));
    }
  });
  const issues: DiscountIssue[] = [];
  const used = new Map<string, number>();
  lines.forEach((line, i) => {
    if (line.kind !== 'discount') return;
    const key = groupKey(line.vat_category, line.vat_rate);
    const subtotal = subtotals.get(key);
    if (subtotal === undefined) {
      issues.push({
        index: i,
        field: 'vat_rate',
        message: `no line at ${normalizeRate(line.vat_rate)} % (category ${line.vat_category}) for this discount to reduce`,
      });
      return;
    }
    const total = (used.get(key) ?? 0) - lineTotalHt(line.quantity, line.unit_price, i);
    used.set(key, total);
    if (total > subtotal) {
      issues.push({
        index: i,
        field: 'unit_price',
        message: `discounts at ${normalizeRate(line.vat_rate)} % exceed that rate's subtotal (${subtotal} cents)`,
      });
    }
  });
  return issues;
}

export interface ProratedGroup {
  vat_category: VatCategory;
  vat_rate: string;
  /** round_half_up(group base × percentage / 100), cents. */
  amount: number;
}

/** A percentage of each VAT group's base (a deposit invoice's lines): one amount per group, rounded once. */
export function prorateGroups(groups: readonly VatGroup[], percentage: string): ProratedGroup[] {
  return groups
    .filter((g) => g.base > 0)
    .map((g) => ({ vat_category: g.vat_category, vat_rate: g.vat_rate, amount: percentOf(g.base, percentage) }))
    .filter((g) => g.amount > 0);
}
