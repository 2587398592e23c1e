import { daysBetween, dueDateFromTerms } from '@/lib/platform/dates';
import { type Buyer, type InvoiceModel, isBusiness, type Seller } from './model';
import { MENTION_TEXTS } from './texts';

/**
 * The mentions the printed document and the Factur-X XML must state alike. Each is decided here once and read
 * by both lib/domain/pdf/template.tsx and lib/domain/facturx/cii.ts, so the PDF never says what the XML does not.
 */

type TaxPointInput = Pick<InvoiceModel, 'type' | 'operation_nature' | 'vat_exigibility' | 'totals'>;

/**
 * "Option pour le paiement de la taxe d’après les débits" (CGI art. 269-2-c, mention of art. 242 nonies A):
 * the option only exists for services — VAT on goods always falls due on delivery — so it applies to an
 * invoice, deposit invoice or credit note of services or of a mixed operation (unset counts as mixed, as
 * BT-23 does) whose seller opted for debits, and that bears VAT (a standard-rate group: BT-8 is written on
 * those only). When it applies, the PDF prints the mention and the XML carries BT-8 = 5; never one without
 * the other.
 */
export function vatOnDebits(m: TaxPointInput): boolean {
  return vatTaxPoint(m) === '5';
}

/**
 * BT-8, the VAT point date code of the standard-rate groups (UNTDID 2005): 5 (invoice date) for services taxed
 * on debits, 72 (paid to date) for services taxed on receipts (the default regime of services), none for goods.
 */
export function vatTaxPoint(m: TaxPointInput): '5' | '72' | null {
  if (m.type === 'devis' || m.operation_nature === 'biens' || !m.vat_exigibility) return null;
  if (!m.totals.groups.some((g) => g.vat_category === 'S')) return null;
  return m.vat_exigibility === 'debits' ? '5' : '72';
}

/**
 * Whether the free-text terms state when payment falls due ("à réception", "30 jours", "net 45", "45 jours fin
 * de mois"): the patterns lib/platform/dates' dueDateFromTerms reads. Other texts ("selon échéancier") state no date.
 */
const statesDelay = (terms: string) => {
  const t = terms.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  return /\b(a reception|des reception|upon receipt|on receipt|comptant|immediat)/.test(t) || /(\d{1,3})\s*(?:jours?|j\b|days?\b)/.test(t) || /\bnet\s*(\d{1,3})\b/.test(t);
};

/**
 * The payment terms printed (and encoded as BT-20) on an invoice or deposit invoice, derived so that they agree
 * with its due date (BT-9): the stored terms when they state no delay or the delay that gives the due date;
 * otherwise the terms are said from the dates — "Payable à réception" when the document falls due on (or, for a
 * deposit, before) its issue date, as a deposit does, else "Paiement à N jours". A quote's terms (for the
 * invoice to come) and a credit note's are printed as stored.
 */
export function paymentTerms(m: Pick<InvoiceModel, 'type' | 'language' | 'issue_date' | 'due_date' | 'payment_terms'>): string | null {
  const stored = m.payment_terms?.trim() ? m.payment_terms : null;
  if ((m.type !== 'facture' && m.type !== 'acompte') || !m.due_date) return stored;
  if (stored && (!statesDelay(stored) || dueDateFromTerms(m.issue_date, stored) === m.due_date)) return stored;
  const t = MENTION_TEXTS[m.language];
  const days = daysBetween(m.issue_date, m.due_date);
  return days <= 0 ? t.payableOnReceipt : t.payableWithin(days);
}

/** BT-3 (UNTDID 1001): invoice 380, deposit invoice 386, credit note 381 — 503 when it credits a deposit invoice. */
export function documentTypeCode(m: Pick<InvoiceModel, 'type' | 'credited'>): string | null {
  switch (m.type) {
    case 'facture':
      return '380';
    case 'acompte':
      return '386';
    case 'avoir':
      return m.credited?.type === 'acompte' ? '503' : '381';
    default:
      return null;
  }
}

export interface ElectronicAddress {
  /** BT-49-1 / BT-34-1: ISO 6523 ICD (0225 French directory) or EAS code (EM e-mail). */
  scheme: '0225' | 'EM';
  value: string;
}

/**
 * BT-49, the buyer's electronic address (mandatory in the French e-invoice, BR-FR-12): the buyer's SIREN in the
 * French directory (0225, required for B2B by BR-FR-21), else the buyer's e-mail. A consumer has no directory
 * entry and B2C invoices are not exchanged through the platforms (they are e-reported, CGI art. 290): the
 * invoice reaches the consumer from the seller. So a consumer without an e-mail gets the seller's own address
 * (the seller's SIREN in the directory, else its e-mail): the invoice is delivered by the seller, and no third
 * party can be addressed by mistake. A business buyer with neither SIREN nor e-mail has none: BR-FR-12
 * rejects that file, so finalization must ask for one.
 */
export function buyerElectronicAddress(buyer: Buyer, siren: string | null, seller: Seller): ElectronicAddress | null {
  if (siren) return { scheme: '0225', value: siren };
  if (buyer.email) return { scheme: 'EM', value: buyer.email };
  if (!isBusiness(buyer)) return sellerElectronicAddress(seller);
  return null;
}

/** BT-34: the seller's SIREN in the French directory (0225), else its e-mail. */
export function sellerElectronicAddress(seller: Seller): ElectronicAddress | null {
  if (seller.siren) return { scheme: '0225', value: seller.siren };
  if (seller.email) return { scheme: 'EM', value: seller.email };
  return null;
}
