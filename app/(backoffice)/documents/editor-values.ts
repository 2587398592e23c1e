import { formatMoneyInput } from '@/lib/platform/format';
import {
  Dec,
  decimalPlaces,
  defaultVatCategory,
  isDecimalString,
  lineTotalHt,
  parseEuros,
  percentageInBounds,
  percentOf,
  QUANTITY_DECIMALS,
  quantityInBounds,
  type VatCategory,
} from '@/lib/platform/money';

/*
 * The editor's texts as values (editor-model.ts re-exports them): amounts typed in euros, quantities and rates, and the
 * amount of a discount typed as a percentage. Browser-safe.
 */

/** What these helpers read of an editor line (editor-model's LineDraft). */
export interface ValueLine {
  kind: 'product' | 'discount';
  quantity: string;
  unit_price: string;
  vat_rate: string;
  vat_category: VatCategory | '';
  discount_percent?: string;
}

/** "1 200,50 €" → 120050 cents; null when the text is not an amount in euros (at most 2 decimals, not negative). */
export function eurosToCents(text: string): number | null {
  const cleaned = text.replace(/€/g, '').trim();
  if (cleaned === '') return null;
  try {
    const cents = parseEuros(cleaned);
    return Number.isSafeInteger(cents) ? cents : null;
  } catch {
    return null;
  }
}

/** "2,5" → "2.5": the decimal text the API reads (a comma is the French decimal separator). */
export const quantityText = (text: string) => text.replace(/[\s\u202f\u00a0]/g, '').replace(',', '.');

/** A quantity within the API's bounds (lib/platform/money: strictly positive, at most 4 decimals and 1e9), else null. */
export function validQuantity(text: string): string | null {
  const q = quantityText(text);
  return isDecimalString(q) && decimalPlaces(q) <= QUANTITY_DECIMALS && quantityInBounds(q) ? new Dec(q).toFixed() : null;
}

export const validRate = (rate: string) => isDecimalString(rate) && percentageInBounds(rate);

/** The VAT category a line will be stored with. */
export const categoryOf = (line: Pick<ValueLine, 'vat_rate' | 'vat_category'>): VatCategory =>
  line.vat_category || (validRate(line.vat_rate) ? defaultVatCategory(line.vat_rate) : 'S');

export const isZeroRate = (rate: string) => validRate(rate) && new Dec(rate).isZero();

// ─── Discounts as a percentage ──────────────────────────────────────────────

/** "12,5" → "12.5" when the text is a percentage between 0 (excluded) and 100, else null. */
function validPercent(text: string | undefined): string | null {
  const p = quantityText(text ?? '');
  return p !== '' && isDecimalString(p) && percentageInBounds(p) && !new Dec(p).isZero() ? new Dec(p).toFixed() : null;
}

/** Whether a discount line is given as a percentage (its amount then computed, not typed). */
export const isPercentDiscount = (line: ValueLine) => line.kind === 'discount' && (line.discount_percent ?? '').trim() !== '';

/**
 * A percentage discount's amount in cents: round_half_up(subtotal × percentage / 100), the subtotal being the net of the
 * product lines of its VAT group (same rate and category), as the server checks a discount against (lib/platform/money
 * checkDiscounts). Rounded once, to the cent, like every EN 16931 amount; null while the percentage is not one.
 */
export function discountAmount(lines: readonly ValueLine[], discount: ValueLine): number | null {
  const percentage = validPercent(discount.discount_percent);
  if (percentage === null || !validRate(discount.vat_rate)) return null;
  const category = categoryOf(discount);
  let subtotal = 0;
  for (const line of lines) {
    if (line.kind !== 'product' || !validRate(line.vat_rate) || categoryOf(line) !== category || !new Dec(line.vat_rate).equals(discount.vat_rate)) continue;
    const price = eurosToCents(line.unit_price);
    const quantity = validQuantity(line.quantity);
    if (price !== null && quantity !== null) subtotal += lineTotalHt(quantity, price);
  }
  return percentOf(subtotal, percentage);
}

/** The lines with each percentage discount's amount filled in (as euros text): what the totals and the payload read. */
export function resolveDiscounts<L extends ValueLine>(lines: readonly L[]): L[] {
  return lines.map((line) => {
    if (!isPercentDiscount(line)) return line;
    const cents = discountAmount(lines, line);
    return { ...line, unit_price: cents === null ? '' : formatMoneyInput(cents) };
  });
}

