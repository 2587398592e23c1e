import { groupExemption, type VatCategory } from '@/lib/platform/money';
import type { Language, Seller } from './model';

/** Why a 0 % VAT group bears no VAT: the mention printed on the document and the EN 16931 exemption reason. */
export interface VatExemption {
  /** BT-121, VATEX code list. */
  code: string | null;
  /** BT-120 and the printed mention. */
  text: Record<Language, string>;
}

/**
 * The VAT basis of a category at 0 % (CGI annexe II art. 242 nonies A: the exemption must be stated), read from
 * the lines: the reason they chose (`vat_exemption_reason`, the catalogue `VAT_EXEMPTION_REASONS` of lib/platform/money),
 * else the category's own (AE, K, G, O). Z (zero rate) carries no reason (BR-Z-10 forbids one), S neither.
 * One reason per category: finalization refuses two E lines with different reasons (BR-E-01, one E breakdown).
 */
export function exemptionOf(
  category: VatCategory,
  items: ReadonlyArray<{ vat_category: VatCategory; vat_exemption_reason?: string | null }> = [],
): VatExemption | null {
  const reason = groupExemption(items, category);
  return reason ? { code: reason.code, text: reason.text } : null;
}

/** "Not subject to VAT" excludes the VAT identifiers from the e-invoice (BR-O-02 … BR-O-04). */
export const sellerVatNumber = (seller: Seller, categories: readonly VatCategory[]) => (categories.includes('O') ? null : seller.vat_number);
