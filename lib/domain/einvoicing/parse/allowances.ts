import { formatRate } from '@/lib/platform/format';
import type { InboundAllowanceCharge } from './types';

/*
 * How a received invoice's allowances and charges are shown (the inbox page, the readable PDF): each one as a signed
 * amount beside its words, so that the lines, their allowances and charges and the document's add up to the totals
 * printed (EN 16931: BT-131 = quantity × net price − BG-27 + BG-28; BT-109 = Σ BT-131 − BT-107 + BT-108).
 */

/** An allowance's amount taken off (negative), a charge's added (positive), signed like the totals. */
export const signedAllowanceCharge = (a: InboundAllowanceCharge) => (a.charge ? a.amount : -a.amount);

/** The signed sum of allowances and charges. */
export const allowancesChargesSum = (list: readonly InboundAllowanceCharge[] | undefined) => (list ?? []).reduce((sum, a) => sum + signedAllowanceCharge(a), 0);

/** « Remise : REMISE VOLUME (1 %) », « Frais : FRAIS PALETTE », « Remise (TVA 20 %) » at the document level. */
export function allowanceChargeLabel(a: InboundAllowanceCharge, { nbsp = false }: { nbsp?: boolean } = {}): string {
  const words = a.reason ?? (a.reason_code ? `code ${a.reason_code}` : null);
  const details = [a.percentage ? formatRate(a.percentage, 'fr', { nbsp }) : null, a.vat_rate !== null ? `TVA ${formatRate(a.vat_rate, 'fr', { nbsp })}` : null].filter(Boolean);
  return `${a.charge ? 'Frais' : 'Remise'}${words ? ` : ${words}` : ''}${details.length ? ` (${details.join(', ')})` : ''}`;
}
