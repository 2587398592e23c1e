import type { VatCategory } from '@/lib/money';
import type { Language, Seller } from './model';

/** Why a 0 % line bears no VAT: the mention printed on the document and the EN 16931 exemption reason. */
export interface VatExemption {
  /** BT-121, VATEX code list; null when the text alone states it. */
  code: string | null;
  /** BT-120 and the printed mention. */
  text: Record<Language, string>;
}

/**
 * The VAT basis of each category at 0 % (CGI art. 242 nonies A: the exemption must be stated). Z (zero rate)
 * carries no reason (BR-Z-10 forbids one). E is the franchise en base of art. 293 B, the exemption French
 * small businesses use; other exemptions (art. 261 and following) would need their own reason.
 */
export const VAT_EXEMPTIONS: Record<Exclude<VatCategory, 'S' | 'Z'>, VatExemption> = {
  E: {
    code: 'VATEX-FR-FRANCHISE',
    text: { fr: 'TVA non applicable, art. 293 B du CGI', en: 'VAT not applicable, article 293 B of the French Tax Code (CGI)' },
  },
  AE: {
    code: 'VATEX-EU-AE',
    text: { fr: 'Autoliquidation', en: 'Reverse charge' },
  },
  K: {
    code: 'VATEX-EU-IC',
    text: {
      fr: 'Exonération de TVA, art. 262 ter I du CGI (livraison intracommunautaire)',
      en: 'VAT exempt intra-Community supply, article 138 of Directive 2006/112/EC',
    },
  },
  G: {
    code: 'VATEX-EU-G',
    text: { fr: 'Exonération de TVA, art. 262 I du CGI (exportation)', en: 'VAT exempt export outside the EU, article 146 of Directive 2006/112/EC' },
  },
  O: {
    code: 'VATEX-EU-O',
    text: { fr: "Opération hors du champ d'application de la TVA", en: 'Not subject to VAT' },
  },
};

export function exemptionOf(category: VatCategory): VatExemption | null {
  return category === 'S' || category === 'Z' ? null : VAT_EXEMPTIONS[category];
}

/** "Not subject to VAT" excludes the VAT identifiers from the e-invoice (BR-O-02 … BR-O-04). */
export const sellerVatNumber = (seller: Seller, categories: readonly VatCategory[]) => (categories.includes('O') ? null : seller.vat_number);
