import type { Db } from '@/db/client';
import type { DocumentType } from '@/db/schema/billing';
import { deductedDeposits } from '@/lib/domain/documents';
import { type ContactRow, type DocumentRow, type ItemRow, loadContactRow, loadDocument, loadItems } from '@/lib/domain/documents';
import { clientSnapshot, sellerSnapshot } from '@/lib/domain/documents';
import { type InvoiceSettingsRow, loadSettings } from '@/lib/domain/invoice-settings';
import type { BillingDocument } from '@/lib/domain/documents';
import { computeTotals, type DocumentTotals, percentOf } from '@/lib/platform/money';
import { getOrg, type Org } from '@/lib/platform/orgs';

export type Language = 'fr' | 'en';
export type Seller = NonNullable<BillingDocument['seller_snapshot']>;
export type Buyer = NonNullable<BillingDocument['client_snapshot']> & { preferred_language?: string | null };
export type DeliveryAddress = NonNullable<BillingDocument['delivery_address']>;

export interface RelatedDocument {
  id: string;
  type: DocumentType;
  number: string;
  issue_date: string;
  total_ht: number;
  total_ttc: number;
}

/**
 * Everything the printed document and the Factur-X XML say, gathered once from the stored document: the
 * frozen snapshots of a finalized document (the live org and contact for a draft preview), its lines and
 * VAT groups, and the documents it points to (the quote of a deposit, the deposits a final invoice deducts,
 * the invoice a credit note offsets).
 */
export interface RenderModel {
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
  /** The org's logo (PNG or JPEG data URL), or null. */
  logo: string | null;
  items: ItemRow[];
  totals: DocumentTotals;
  delivery_address: DeliveryAddress | null;
  operation_nature: DocumentRow['operation_nature'];
  vat_exigibility: DocumentRow['vat_exigibility'];
  payment_terms: string | null;
  payment_method: string | null;
  discount_terms: string | null;
  execution_timeline: string | null;
  deposit_request_percentage: string | null;
  /** Quote: deposit asked at order, TTC cents. */
  deposit_request_amount: number | null;
  acompte_percentage: string | null;
  credit_reason_code: DocumentRow['credit_reason_code'];
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

const related = (row: DocumentRow): RelatedDocument => ({
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

export async function loadRenderModel(db: Db, orgId: string, documentId: string): Promise<RenderModel> {
  const doc = await loadDocument(db, orgId, documentId);
  return buildRenderModel(db, orgId, doc, await loadItems(db, orgId, doc.id));
}

/** Rows the caller has already read in the same transaction (finalization's seal checks), not read again. */
export interface KnownRows {
  org?: Org;
  settings?: InvoiceSettingsRow;
  contact?: ContactRow;
}

export async function buildRenderModel(db: Db, orgId: string, doc: DocumentRow, items: ItemRow[], known: KnownRows = {}): Promise<RenderModel> {
  const org = known.org ?? (await getOrg(db, orgId));
  // A credit note's finalization may relink it to the credited invoice's contact: only the same contact is reused.
  const contact = known.contact?.id === doc.contact_id ? known.contact : await loadContactRow(db, orgId, doc.contact_id);
  const byId = async (id: string | null) => (id ? related(await loadDocument(db, orgId, id)) : null);

  let seller: Seller;
  let buyer: Buyer;
  if (doc.finalized_at) {
    seller = doc.seller_snapshot as Seller;
    buyer = doc.client_snapshot as Buyer;
  } else {
    // A draft prints what finalization would freeze now (a credit note names the buyer its invoice named).
    seller = sellerSnapshot(org, known.settings ?? (await loadSettings(db, orgId)));
    const credited = doc.type === 'avoir' && doc.avoir_for_id ? await loadDocument(db, orgId, doc.avoir_for_id) : null;
    buyer = (credited?.client_snapshot as Buyer | null) ?? (contact ? clientSnapshot(contact) : placeholderBuyer(doc.contact_id));
  }
  // The language is presentation, not legal content: the snapshot's when it has one, else the contact's.
  const language: Language = (buyer.preferred_language ?? contact?.preferred_language) === 'en' ? 'en' : 'fr';

  let quote: RelatedDocument | null = null;
  let deposits: RelatedDocument[] = [];
  if (doc.type === 'acompte') quote = await byId(doc.parent_devis_id);
  if (doc.type === 'facture' && doc.converted_from_id) quote = await byId(doc.converted_from_id);
  // The deposits its conversion deducted, as recorded then, with the amounts deducted (net of their credit notes).
  if (doc.type === 'facture') {
    deposits = (await deductedDeposits(db, orgId, doc.id)).map((d) => ({ ...related(d.deposit), total_ht: d.total_ht, total_ttc: d.total_ttc }));
  }
  const credited = doc.type === 'avoir' ? await byId(doc.avoir_for_id) : null;

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
    logo: org.logo_data_url,
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

function placeholderBuyer(contactId: string): Buyer {
  return {
    contact_id: contactId,
    type: 'professionnel',
    name: null,
    first_name: null,
    last_name: null,
    company: null,
    email: null,
    phone: null,
    address: null,
    postal_code: null,
    city: null,
    country: 'FR',
    siret: null,
    siren: null,
    vat_intra: null,
  };
}
