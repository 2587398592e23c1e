import { type InvoiceModel, invoiceModel, relatedDocument, type Buyer, type RelatedDocument, type Seller } from '@/lib/domain/facturx';
import { type InvoiceSettingsRow, loadSettings, prefixFor } from '@/lib/domain/invoice-settings';
import { todayParis, yearOf } from '@/lib/platform/dates';
import { getOrg, type Org } from '@/lib/platform/orgs';
import { deductedDeposits } from './deposit-deductions';
import { type Conn, type ContactRow, type DocumentRow, type ItemRow, loadContactRow, loadDocument } from './documents';
import { clientSnapshot, finalizationDates, sellerSnapshot } from './finalization-values';
import { peekNumber } from './numbering';

/**
 * Rows the caller has already read in the same transaction (finalization: its org, settings, live contact and the
 * invoice a credit note offsets), not read again.
 */
export interface KnownRows {
  org?: Org;
  settings?: InvoiceSettingsRow;
  contact?: ContactRow;
  credited?: DocumentRow | null;
}

/**
 * The values lib/domain/facturx builds a document's Factur-X from (and lib/domain/pdf prints): the frozen snapshots of
 * a finalized document (a draft: the live seller and buyer finalizing it would freeze), its lines, and the documents
 * it points to — the quote of a deposit or of a converted invoice, the deposits a final invoice's conversion deducted
 * (net of their credit notes), the invoice a credit note offsets.
 */
export async function invoiceModelOf(db: Conn, orgId: string, doc: DocumentRow, items: ItemRow[], known: KnownRows = {}): Promise<InvoiceModel> {
  // A credit note's finalization may relink it to the credited invoice's contact: only the same contact is reused.
  const contact = known.contact?.id === doc.contact_id ? known.contact : await loadContactRow(db, orgId, doc.contact_id);
  const byId = async (id: string | null) => (id ? relatedDocument(await loadDocument(db, orgId, id)) : null);
  const creditedRow =
    doc.type === 'avoir' && doc.avoir_for_id ? (known.credited?.id === doc.avoir_for_id ? known.credited : await loadDocument(db, orgId, doc.avoir_for_id)) : null;

  let seller: Seller;
  let buyer: Buyer;
  if (doc.finalized_at) {
    seller = doc.seller_snapshot as Seller;
    buyer = doc.client_snapshot as Buyer;
  } else {
    // A draft prints what finalization would freeze now (a credit note names the buyer its invoice named).
    seller = sellerSnapshot(known.org ?? (await getOrg(db, orgId)), known.settings ?? (await loadSettings(db, orgId)));
    buyer = (creditedRow?.client_snapshot as Buyer | null) ?? (contact ? clientSnapshot(contact) : placeholderBuyer(doc.contact_id));
  }

  let quote: RelatedDocument | null = null;
  let deposits: RelatedDocument[] = [];
  if (doc.type === 'acompte') quote = await byId(doc.parent_devis_id);
  if (doc.type === 'facture' && doc.converted_from_id) quote = await byId(doc.converted_from_id);
  // The deposits its conversion deducted, as recorded then, with the amounts deducted (net of their credit notes).
  if (doc.type === 'facture') {
    deposits = (await deductedDeposits(db, orgId, doc.id)).map((d) => ({ ...relatedDocument(d.deposit), total_ht: d.total_ht, total_ttc: d.total_ttc }));
  }
  const credited = creditedRow ? relatedDocument(creditedRow) : null;
  return invoiceModel({ doc, items, seller, buyer, contactLanguage: contact?.preferred_language, quote, deposits, credited });
}

/**
 * A draft as finalizing it now would number and date it, nothing taken: the series' next number (numbering.ts
 * peekNumber) and the dates finalization would set (finalization-values.ts finalizationDates).
 */
export async function asFinalizedNow(db: Conn, orgId: string, draft: DocumentRow, settings?: InvoiceSettingsRow): Promise<DocumentRow> {
  const { issue_date, due_date, validity_date } = finalizationDates(draft, todayParis(new Date()));
  const year = yearOf(issue_date);
  const number = await peekNumber(db, orgId, draft.type, year, prefixFor(settings ?? (await loadSettings(db, orgId)), draft.type));
  return { ...draft, number, issue_date, due_date, validity_date };
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
