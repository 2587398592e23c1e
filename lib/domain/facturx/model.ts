import type { documentItems, documents } from '@/db/schema';
import type { DocumentType } from '@/db/schema/billing';
import { computeTotals, type DocumentTotals, percentOf } from '@/lib/platform/money';

export type Language = 'fr' | 'en';

/** A document's row and its lines, as stored (db/schema): the values the model reads. */
export type DocumentValues = typeof documents.$inferSelect;
export type ItemValues = typeof documentItems.$inferSelect;

/** The seller's legal identity and payment mentions as frozen at finalization (lib/domain/documents sellerSnapshot). */
export interface Seller {
  name: string;
  legal_name: string | null;
  legal_form: string | null;
  share_capital_cents: number | null;
  siren: string | null;
  siret: string | null;
  vat_number: string | null;
  rcs: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string;
  email: string | null;
  phone: string | null;
  iban: string | null;
  bic: string | null;
  penalty_rate: string | null;
  recovery_fee: number;
  footer_mentions: string | null;
}

/** The buyer as invoiced (lib/domain/documents clientSnapshot). */
export interface Buyer {
  contact_id: string;
  type: string;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string;
  siret: string | null;
  siren: string | null;
  vat_intra: string | null;
  preferred_language?: string | null;
}

export interface DeliveryAddress {
  name: string | null;
  address: string;
  postal_code: string | null;
  city: string;
  country: string;
}

export interface RelatedDocument {
  id: string;
  type: DocumentType;
  number: string;
  issue_date: string;
  total_ht: number;
  total_ttc: number;
}

/**
 * Everything the Factur-X XML says — and the printed document with it (lib/domain/pdf adds the logo) — gathered
 * once: the document's values, its seller and buyer (the frozen snapshots of a finalized document, the live ones a
 * draft would freeze), its lines and VAT groups, and the documents it points to (the quote of a deposit, the deposits
 * a final invoice deducts, the invoice a credit note offsets).
 */
export interface InvoiceModel {
  id: string;
  type: DocumentType;
  draft: boolean;
  language: Language;
  number: string | null;
  issue_date: string;
  due_date: string | null;
  service_date: string | null;
  validity_date: string | null;
  finalized_at: Date | null;
  title: string | null;
  description: string | null;
  notes: string | null;
  seller: Seller;
  buyer: Buyer;
  items: ItemValues[];
  totals: DocumentTotals;
  delivery_address: DeliveryAddress | null;
  operation_nature: DocumentValues['operation_nature'];
  vat_exigibility: DocumentValues['vat_exigibility'];
  payment_terms: string | null;
  payment_method: string | null;
  discount_terms: string | null;
  execution_timeline: string | null;
  deposit_request_percentage: string | null;
  /** Quote: deposit asked at order, TTC cents. */
  deposit_request_amount: number | null;
  acompte_percentage: string | null;
  credit_reason_code: DocumentValues['credit_reason_code'];
  credit_reason_text: string | null;
  /** Deposit: its quote. Invoice converted from a quote: that quote. */
  quote: RelatedDocument | null;
  /**
   * Final invoice: the deposit invoices its conversion deducted (lib/domain/documents/deposit-deductions.ts), in chain
   * order; here `total_ht` and `total_ttc` are what was deducted of each (net of its credit notes), not its totals.
   */
  deposits: RelatedDocument[];
  /** Credit note: the invoice it offsets. */
  credited: RelatedDocument | null;
}

/** What the model is made of: plain values, read by the caller (lib/domain/documents) in its own transaction. */
export interface InvoiceModelInput {
  doc: DocumentValues;
  items: ItemValues[];
  seller: Seller;
  buyer: Buyer;
  /** The contact's preferred language, used when the buyer snapshot carries none. */
  contactLanguage?: string | null;
  quote: RelatedDocument | null;
  deposits: RelatedDocument[];
  credited: RelatedDocument | null;
}

export const relatedDocument = (row: DocumentValues): RelatedDocument => ({
  id: row.id,
  type: row.type,
  number: row.number ?? '',
  issue_date: row.issue_date,
  total_ht: row.total_ht,
  total_ttc: row.total_ttc,
});

/** A business client gets the late-payment indemnity and penalty mentions (Code de commerce L441-10). */
export const isBusiness = (buyer: Buyer) => buyer.type !== 'particulier';

/** The buyer's SIREN: stated, or the first 9 digits of the SIRET. */
export const buyerSiren = (buyer: Buyer) => buyer.siren || (buyer.siret && /^\d{14}$/.test(buyer.siret) ? buyer.siret.slice(0, 9) : null);

/** The language a document is printed in — presentation, not legal content: the snapshot's when it has one, else the contact's. */
export const documentLanguage = (snapshotLanguage: string | null | undefined, contactLanguage: string | null | undefined): Language =>
  (snapshotLanguage ?? contactLanguage) === 'en' ? 'en' : 'fr';

export function invoiceModel({ doc, items, seller, buyer, contactLanguage, quote, deposits, credited }: InvoiceModelInput): InvoiceModel {
  const language = documentLanguage(buyer.preferred_language, contactLanguage);
  return {
    id: doc.id,
    type: doc.type,
    draft: !doc.finalized_at,
    language,
    number: doc.number,
    issue_date: doc.issue_date,
    due_date: doc.due_date,
    service_date: doc.service_date,
    validity_date: doc.validity_date,
    finalized_at: doc.finalized_at,
    title: doc.title,
    description: doc.description,
    notes: doc.notes,
    seller,
    buyer,
    items,
    totals: computeTotals(items),
    delivery_address: (doc.delivery_address as DeliveryAddress | null) ?? null,
    operation_nature: doc.operation_nature,
    vat_exigibility: doc.vat_exigibility,
    payment_terms: doc.payment_terms,
    payment_method: doc.payment_method,
    discount_terms: doc.discount_terms,
    execution_timeline: doc.execution_timeline,
    deposit_request_percentage: doc.deposit_request_percentage,
    deposit_request_amount: doc.deposit_request_percentage ? percentOf(doc.total_ttc, doc.deposit_request_percentage) : null,
    acompte_percentage: doc.acompte_percentage,
    credit_reason_code: doc.credit_reason_code,
    credit_reason_text: doc.credit_reason_text,
    quote,
    deposits,
    credited,
  };
}
