import { Dec } from '@/lib/platform/money';

/**
 * The legal floors of the late-payment mentions (docs/billing.md, "Finalization rules"):
 * - the fixed recovery indemnity is €40 (C. com. D441-5);
 * - a contractual late-penalty rate may not be below three times the legal interest rate (C. com. L441-10 II).
 *
 * The legal interest rate is set every half-year by arrêté (C. monét. fin. L313-2, D313-1-A), one rate for
 * creditors who are natural persons not acting for professional needs and one "for all other cases": a business
 * invoicing a business is the second. Each entry applies from its date until the next one; add the new half-year's
 * rate when its arrêté is published (late June, late December).
 */
export const LEGAL_INTEREST_RATES: ReadonlyArray<{ from: string; rate: string; source: string }> = [
  { from: '2025-01-01', rate: '3.71', source: 'Arrêté du 20 décembre 2024 (JO du 27 décembre 2024)' },
  { from: '2025-07-01', rate: '2.76', source: 'Arrêté du 19 juin 2025 (JO du 24 juin 2025)' },
  { from: '2026-01-01', rate: '2.62', source: 'Arrêté du 15 décembre 2025 (JO du 26 décembre 2025)' },
];

/** D441-5: €40, in cents. */
export const MIN_RECOVERY_FEE = 4000;

/** The legal interest rate ("autres cas") in force on a calendar day: the latest entry from that day or before. */
export function legalInterestRate(day: string): string {
  let rate = LEGAL_INTEREST_RATES[0]!.rate;
  for (const entry of LEGAL_INTEREST_RATES) if (entry.from <= day) rate = entry.rate;
  return rate;
}

/** L441-10 II: the lowest contractual late-penalty rate on a day, 3 × the legal interest rate ("7.86"). */
export const minPenaltyRate = (day: string) => new Dec(legalInterestRate(day)).times(3).toFixed();

/**
 * What of the settings' late-payment mentions is below the law on `day`: field → message. A null penalty rate
 * is the legal default (ECB rate + 10 points, printed as such), never below the floor.
 */
export function belowLegalFloors(settings: { penalty_rate: string | null; recovery_fee: number }, day: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (settings.recovery_fee < MIN_RECOVERY_FEE) {
    out.recovery_fee = `recovery_fee: the fixed recovery indemnity is at least 4000 cents (€40, C. com. D441-5)`;
  }
  if (settings.penalty_rate !== null && new Dec(settings.penalty_rate).lt(minPenaltyRate(day))) {
    out.penalty_rate =
      `penalty_rate: a late-penalty rate may not be below 3 × the legal interest rate (C. com. L441-10), ` +
      `${minPenaltyRate(day)} % on ${day} (legal rate ${legalInterestRate(day)} %); leave it null for the legal default (ECB rate + 10 points)`;
  }
  return out;
}
