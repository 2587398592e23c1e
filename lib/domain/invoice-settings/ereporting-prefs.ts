import { z } from 'zod';

/*
 * E-reporting preferences (CGI art. 290 and 290 A; docs/einvoicing.md "Réception et e-reporting"): which of the
 * org's data its Plateforme Agréée must transmit to the PPF, and how often. Paraphe supplies the data
 * (GET /v1/invoices/ereporting); the PA transmits it.
 */

/** The VAT regime decides the periodicity of the transmissions. */
export const VAT_REGIMES = ['reel_normal_mensuel', 'reel_normal_trimestriel', 'reel_simplifie', 'franchise'] as const;
export type VatRegime = (typeof VAT_REGIMES)[number];
export const EREPORTING_PERIODICITIES = ['decade', 'monthly', 'bimonthly'] as const;
export type EReportingPeriodicity = (typeof EREPORTING_PERIODICITIES)[number];

/**
 * Transactions: three times a month (by decade: 1–10, 11–20, 21–end) under the normal monthly regime, monthly under
 * the normal quarterly and the simplified regimes, every two months under the franchise; payments: monthly, every
 * two months under the franchise.
 */
export const PERIODICITY_OF: Record<VatRegime, { periodicity: EReportingPeriodicity; payments_periodicity: EReportingPeriodicity }> = {
  reel_normal_mensuel: { periodicity: 'decade', payments_periodicity: 'monthly' },
  reel_normal_trimestriel: { periodicity: 'monthly', payments_periodicity: 'monthly' },
  reel_simplifie: { periodicity: 'monthly', payments_periodicity: 'monthly' },
  franchise: { periodicity: 'bimonthly', payments_periodicity: 'bimonthly' },
};

const Periodicity = z.enum(EREPORTING_PERIODICITIES, { error: 'must be decade, monthly or bimonthly' });
const Flag = z.boolean({ error: 'must be a boolean' });
const Regime = z.enum(VAT_REGIMES, { error: 'must be reel_normal_mensuel, reel_normal_trimestriel, reel_simplifie or franchise' });

/*
 * The spec types the field as free JSON: the documented keys are checked when present, any other key is kept as the
 * integrator sent it, so what is PUT reads back unchanged — except that a vat_regime fills the periodicities it sets.
 */
const documented = {
  b2c_sales: Flag.optional().meta({ description: 'Report sales to consumers (B2C): totals per day, VAT rate and category. Absent: false.' }),
  international_sales: Flag.optional().meta({ description: 'Report sales to businesses established abroad (intra-EU and export). Absent: false.' }),
  payment_data: Flag.optional().meta({ description: 'Report the payments collected for services taxed on receipts (no option for debits). Absent: false.' }),
  vat_regime: Regime.optional().meta({ description: 'The org’s VAT regime: it sets both periodicities.' }),
  periodicity: Periodicity.optional().meta({ description: 'Transactions: derived from vat_regime; when sent, must be that one.' }),
  payments_periodicity: Periodicity.optional().meta({ description: 'Payments: derived from vat_regime; when sent, must be that one.' }),
};

export const EReportingPrefsInput = z
  .looseObject(documented, { error: 'must be an object' })
  .superRefine((p, ctx) => {
    if (!p.vat_regime) return;
    for (const key of ['periodicity', 'payments_periodicity'] as const) {
      const expected = PERIODICITY_OF[p.vat_regime][key];
      if (p[key] !== undefined && p[key] !== expected) {
        ctx.addIssue({ code: 'custom', path: [key], message: `must be ${expected} for the VAT regime ${p.vat_regime}` });
      }
    }
  })
  .transform((p) => (p.vat_regime ? { ...p, ...PERIODICITY_OF[p.vat_regime] } : p))
  .nullish()
  .transform((v) => v ?? null)
  .meta({
    description:
      'E-reporting preferences, or null (nothing reported). The documented keys are checked when present, others kept; periodicities are derived from vat_regime (docs/einvoicing.md).',
  });
export type EReportingPrefsInput = z.output<typeof EReportingPrefsInput>;

export const EReportingPrefs = z.looseObject(documented).meta({ id: 'EReportingPrefs' });
export type EReportingPrefs = z.infer<typeof EReportingPrefs>;

/** The stored preferences (an object; anything else reads as none). */
export const storedEReportingPrefs = (value: unknown): EReportingPrefs | null => EReportingPrefs.safeParse(value).data ?? null;
