/**
 * Factur-X EN 16931: the CII XML of an invoice, deposit invoice or credit note, and its validation as a PA runs it
 * (docs/facturx.md). A leaf: it takes plain values — the document, its lines, its seller and buyer, the documents it
 * points to — and imports no domain module. lib/domain/documents checks a document's e-invoice before sealing it;
 * lib/domain/pdf embeds the XML in the PDF/A-3 and prints the mentions the XML states.
 */
export {
  type Buyer,
  buyerSiren,
  type DeliveryAddress,
  type DocumentValues,
  documentLanguage,
  type InvoiceModel,
  type InvoiceModelInput,
  invoiceModel,
  isBusiness,
  type ItemValues,
  type Language,
  type RelatedDocument,
  relatedDocument,
  type Seller,
} from './model';
export { buildFacturX, businessProcess, EN16931_GUIDELINE, FACTURX_CONFORMANCE, isEInvoice, processingRule, TYPE_CODES } from './cii';
export { buyerElectronicAddress, documentTypeCode, type ElectronicAddress, paymentTerms, sellerElectronicAddress, vatOnDebits, vatTaxPoint } from './mentions';
export { exemptionOf, sellerVatNumber, type VatExemption } from './vat';
export { documentDay, legalIdentity, lines, MENTION_TEXTS } from './texts';
export { assertValidEInvoice, einvoiceErrors, einvoiceInvalid } from './check';
export {
  type EInvoiceError,
  type EInvoiceLayer,
  einvoiceValidationStats,
  type SchematronEngine,
  schematronEngine,
  validateEInvoice,
  warmUpEInvoiceValidation,
} from './einvoice-validation';
