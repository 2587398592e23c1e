import { defineModule } from '@/lib/platform/manifest';
import { validateBeforeSealing } from './einvoice-check';
import { renderDocumentJob, renderOnFinalize } from './jobs';
import { pdfOperations } from './operations';

export const manifest = defineModule({
  name: 'pdf',
  operations: pdfOperations,
  jobs: [renderDocumentJob],
  subscriptions: [renderOnFinalize],
  sealChecks: [validateBeforeSealing],
});

export { type EInvoiceValidation, validateDocumentEInvoice } from './einvoice-check';
export { type EInvoiceError, type EInvoiceLayer, einvoiceValidationStats, schematronEngine, validateEInvoice, warmUpEInvoiceValidation } from './facturx/einvoice-validation';

export { type DocumentPdf, documentPdfForSending, readStoredPdf } from './document-pdf';

export { renderStoredDocument } from './render-stored-document';
// The Content-Disposition every PDF answer gives (a UTF-8 name and its ASCII copy), for the other modules' downloads.
export { contentDisposition, etagMatches } from './stored-pdf';

// The templates' parts and fonts, for the readable view of a received e-invoice (lib/domain/einvoicing renderInboundPdf).
export { Box, documentStyles, LineRow, LinesHeader, Meta, Section, VatSummaryHeader } from './template';
export { printable, registerFonts } from './fonts';
export { documentDay, LABELS, unitLabel } from './i18n';
// The PDF download's query and body schemas, for the other modules' PDF endpoints (received invoices).
export { PdfFile, PdfQuery } from './schemas';
