import type { VatCategory } from './totals';

/** A language the documents are printed in (the exemption mention is a printed mention). */
type Texts = { fr: string; en: string };

/**
 * Why a 0 % line bears no VAT (CGI annexe II art. 242 nonies A I 13°: the exemption's legal basis is a mandatory
 * mention), as EN 16931 encodes it: BT-121, a code of the CEF VATEX list, and BT-120, its text. One entry per
 * code a French seller uses; every code is in the list the CEN schematron checks (BR-CL-22).
 */
export interface VatExemptionReason {
  code: string;
  /** The VAT category the reason belongs to (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
  category: Exclude<VatCategory, 'S' | 'Z'>;
  /** BT-120 and the printed mention. */
  text: Texts;
  /** What the back-office's selector shows (French). */
  label: string;
}

const cgi = (code: string, article: string, label: string): VatExemptionReason => ({
  code,
  category: 'E',
  text: { fr: `Exonération de TVA, art. ${article} du CGI`, en: `VAT exempt, article ${article} of the French Tax Code (CGI)` },
  label,
});

export const FRANCHISE_REASON = 'VATEX-FR-FRANCHISE';

export const VAT_EXEMPTION_REASONS: readonly VatExemptionReason[] = [
  {
    code: FRANCHISE_REASON,
    category: 'E',
    text: { fr: 'TVA non applicable, art. 293 B du CGI', en: 'VAT not applicable, article 293 B of the French Tax Code (CGI)' },
    label: 'Franchise en base de TVA (art. 293 B du CGI)',
  },
  cgi('VATEX-FR-CGI261-1', '261, 1', 'Art. 261, 1 du CGI'),
  cgi('VATEX-FR-CGI261-2', '261, 2', 'Art. 261, 2 du CGI'),
  cgi('VATEX-FR-CGI261-3', '261, 3', 'Art. 261, 3 du CGI'),
  cgi('VATEX-FR-CGI261-4', '261, 4', 'Art. 261, 4 du CGI (notamment soins médicaux, enseignement)'),
  cgi('VATEX-FR-CGI261-5', '261, 5', 'Art. 261, 5 du CGI'),
  cgi('VATEX-FR-CGI261-7', '261, 7', 'Art. 261, 7 du CGI (notamment organismes sans but lucratif)'),
  cgi('VATEX-FR-CGI261-8', '261, 8', 'Art. 261, 8 du CGI'),
  cgi('VATEX-FR-CGI261A', '261 A', 'Art. 261 A du CGI'),
  cgi('VATEX-FR-CGI261B', '261 B', 'Art. 261 B du CGI'),
  cgi('VATEX-FR-CGI261C-1', '261 C, 1°', 'Art. 261 C, 1° du CGI (notamment opérations bancaires et financières)'),
  cgi('VATEX-FR-CGI261C-2', '261 C, 2°', 'Art. 261 C, 2° du CGI'),
  cgi('VATEX-FR-CGI261C-3', '261 C, 3°', 'Art. 261 C, 3° du CGI'),
  cgi('VATEX-FR-CGI261D-1', '261 D, 1°', 'Art. 261 D, 1° du CGI'),
  cgi('VATEX-FR-CGI261D-1BIS', '261 D, 1° bis', 'Art. 261 D, 1° bis du CGI'),
  cgi('VATEX-FR-CGI261D-2', '261 D, 2°', 'Art. 261 D, 2° du CGI'),
  cgi('VATEX-FR-CGI261D-3', '261 D, 3°', 'Art. 261 D, 3° du CGI'),
  cgi('VATEX-FR-CGI261D-4', '261 D, 4°', 'Art. 261 D, 4° du CGI (notamment locations meublées)'),
  cgi('VATEX-FR-CGI261E-1', '261 E, 1°', 'Art. 261 E, 1° du CGI'),
  cgi('VATEX-FR-CGI261E-2', '261 E, 2°', 'Art. 261 E, 2° du CGI'),
  cgi('VATEX-FR-CGI275', '275', 'Art. 275 du CGI (achats en franchise des exportateurs)'),
  cgi('VATEX-FR-CGI277A', '277 A', 'Art. 277 A du CGI (régime suspensif)'),
  cgi('VATEX-FR-CGI295', '295', 'Art. 295 du CGI'),
  cgi('VATEX-FR-298SEXDECIESA', '298 sexdecies A', 'Art. 298 sexdecies A du CGI'),
  {
    code: 'VATEX-EU-AE',
    category: 'AE',
    text: { fr: 'Autoliquidation', en: 'Reverse charge' },
    label: 'Autoliquidation (l’acheteur est redevable de la TVA)',
  },
  {
    code: 'VATEX-FR-AE',
    category: 'AE',
    text: { fr: 'Autoliquidation, art. 283 du CGI', en: 'Reverse charge, article 283 of the French Tax Code (CGI)' },
    label: 'Autoliquidation interne (art. 283 du CGI, ex. sous-traitance BTP)',
  },
  {
    code: 'VATEX-EU-IC',
    category: 'K',
    text: {
      fr: 'Exonération de TVA, art. 262 ter I du CGI (livraison intracommunautaire)',
      en: 'VAT exempt intra-Community supply, article 138 of Directive 2006/112/EC',
    },
    label: 'Livraison intracommunautaire (art. 262 ter I du CGI)',
  },
  {
    code: 'VATEX-EU-G',
    category: 'G',
    text: { fr: 'Exonération de TVA, art. 262 I du CGI (exportation)', en: 'VAT exempt export outside the EU, article 146 of Directive 2006/112/EC' },
    label: 'Exportation hors UE (art. 262 I du CGI)',
  },
  {
    code: 'VATEX-EU-O',
    category: 'O',
    text: { fr: "Opération hors du champ d’application de la TVA", en: 'Not subject to VAT' },
    label: 'Hors du champ de la TVA',
  },
];

export const VAT_EXEMPTION_CODES = VAT_EXEMPTION_REASONS.map((r) => r.code) as [string, ...string[]];

const BY_CODE = new Map(VAT_EXEMPTION_REASONS.map((r) => [r.code, r]));

/** The reason of a code of the catalogue, or undefined. */
export const exemptionReason = (code: string | null | undefined) => (code ? BY_CODE.get(code) : undefined);

/** The reason a category has when none is chosen: AE, K, G and O have one each; E has several (none is assumed), S and Z none. */
export const DEFAULT_EXEMPTION: Partial<Record<VatCategory, string>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/**
 * The exemption of a VAT group (one BG-23 per category and rate, one reason each): the reason its lines chose (the
 * first line of the category that names one), else the category's default. E without a chosen reason is the
 * franchise en base: what it meant before reasons could be chosen (migration 0017), kept for the documents
 * finalized then; finalization now refuses it.
 */
export function groupExemption(
  items: ReadonlyArray<{ vat_category: VatCategory; vat_exemption_reason?: string | null }>,
  category: VatCategory,
): VatExemptionReason | null {
  if (category === 'S' || category === 'Z') return null;
  const chosen = items.find((it) => it.vat_category === category && it.vat_exemption_reason)?.vat_exemption_reason;
  return exemptionReason(chosen) ?? exemptionReason(DEFAULT_EXEMPTION[category] ?? FRANCHISE_REASON) ?? null;
}

/** The reason the lines of a category chose, if any (copied onto a deposit's line of that group). */
export const chosenExemption = (items: ReadonlyArray<{ vat_category: VatCategory; vat_exemption_reason?: string | null }>, category: VatCategory) =>
  items.find((it) => it.vat_category === category && it.vat_exemption_reason)?.vat_exemption_reason ?? null;
