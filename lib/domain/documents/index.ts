import { documents } from '@/db/schema';
import { defineModule } from '@/lib/platform/manifest';
import { expireQuotesJob } from './expire-quotes';
import { documentOperations } from './operations';
import { BillingDocument } from './schemas';

/** Quotes, invoices, deposit invoices and credit notes: drafts, finalization, numbering, hash chain, transitions. */
export const manifest = defineModule({
  name: 'documents',
  operations: documentOperations,
  jobs: [expireQuotesJob],
  events: {
    'invoice.created': BillingDocument,
    'invoice.updated': BillingDocument,
    'invoice.finalized': BillingDocument,
    'invoice.cancelled': BillingDocument,
    'quote.accepted': BillingDocument,
    'quote.rejected': BillingDocument,
    'quote.expired': BillingDocument,
    'quote.converted': BillingDocument,
  },
  contactReferences: [{ resource: 'billing_documents', table: documents, column: documents.contact_id }],
});

export { balanceSql, outstandingSql, overdueSql, remainingDue } from './balance';
export { OPEN_QUOTE_STATUSES } from './allowed-actions';
export { deductedDeposits } from './deposit-deductions';
export {
  contactGone,
  documentView,
  loadContactRow,
  loadDocument,
  loadItems,
  recordDocumentEvent,
  type Conn,
  type ContactRow,
  type DocumentRow,
  type DocumentStates,
  type FullDocumentRow,
  type ItemRow,
} from './documents';
// Whether an issued document goes to the PA: decided at finalization, carried out by lib/domain/einvoicing.
export { frenchBusinessBuyer, TRANSMITTED_TYPES, transmissionRequired } from './transmission-rule';
export { clientSnapshot, finalizeDocument, sellerSnapshot } from './finalize-document';
export { BillingDocument, CreditNoteBody, DocumentCreate, ItemInput } from './schemas';
// Recurring templates check their lines exactly as a draft's (lib/domain/recurring).
export { prepareItems } from './documents';
// The services the demo data (lib/composition/demo-data.ts) issues documents through, like the API does.
export { createDocument } from './create-document';
export { expireQuotes } from './expire-quotes';
export { listDocuments } from './list-documents';
export { createDeposit } from './create-deposit';
// A signed quote's cascade converts it as POST …/convert-to-facture does (lib/domain/signed-quotes).
export { convertToFacture } from './convert-to-facture';
export { createCreditNote } from './create-credit-note';
export { acceptQuote, rejectQuote } from './quote-decision';
export { PAYABLE_STATUSES, assertAllowed, pastValidity, setStatus } from './transitions';
// The status `sent` and sent_at of a document e-mailed (lib/domain/sending), stamped as every status change is.
export { markSent } from './transitions';
export { allowedActions, type Refusal } from './allowed-actions';
export { chainState, verifyChainNow } from './chain';
export { formatNumber } from './numbering';
// The values a document's Factur-X is built from (lib/domain/facturx), for the PDF and the e-invoice check of a draft.
export { asFinalizedNow, invoiceModelOf, type KnownRows } from './einvoice';
export { chainStateOperation, verifyChainOperation } from './operations';
// The EU VAT territory, for e-reporting's international sales (lib/domain/einvoicing).
export { EU_COUNTRIES } from './finalization-rules';
export { contactsOfDocuments, DOCUMENT_SORTS, documentsToExport, EXPORT_LIMIT, getDocument, overdueAmong, paidByDocument, summarizeDocuments } from './list-documents';
export { DepositBody, DocumentListQuery, DocumentPatch } from './schemas';
export { duplicateDocument } from './duplicate-document';
export { unitCodeOf } from './units';
export { deleteDocument, updateDocument } from './update-document';
export { cancelDocument } from './cancel-document';
export { FinalizationRefused } from './finalization-rules';
export { acceptQuoteOperation, cancelDocumentOperation, convertToFactureOperation, createCreditNoteOperation, createDepositOperation, createDocumentOperation, deleteDocumentOperation, documentFlowOperation, duplicateDocumentOperation, finalizeDocumentOperation, getDocumentOperation, listDocumentsOperation, rejectQuoteOperation, updateDocumentOperation } from './operations';
export { DocumentItem } from './document-schema';
export { documentFlow } from './document-flow';
export { verifyChain } from './hash-chain';
