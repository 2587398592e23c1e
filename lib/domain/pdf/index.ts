import { defineModule } from '@/lib/platform/manifest';
import { renderDocumentJob, renderOnFinalize } from './jobs';
import { pdfOperations } from './operations';
import { largeRenderTask, renderTask } from './render-bounded';
import { DocumentRendered, DocumentRenderFailed } from './schemas';

export const manifest = defineModule({
  name: 'pdf',
  operations: pdfOperations,
  jobs: [renderDocumentJob],
  // Internal events (no outbox row, never delivered): the stored PDF announced to the modules that wait for it.
  events: { 'pdf.document_rendered': DocumentRendered, 'pdf.document_render_failed': DocumentRenderFailed },
  subscriptions: [renderOnFinalize],
  // Our own documents too are rendered in a worker thread with a capped heap (render-bounded.ts).
  sandboxTasks: [renderTask, largeRenderTask],
});

// What pdf's internal events carry, for their subscribers (lib/domain/einvoicing's transmission).
export type { DocumentRendered, DocumentRenderFailed } from './schemas';

// GET /v1/invoices/{id}/validation: a document's Factur-X checked as lib/domain/facturx validates it before sealing.
export { type EInvoiceValidation, validateDocumentEInvoice } from './validate-document';

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
export { storedPdf, storedPdfResponse } from './stored-pdf';
export { getDocumentPdfOperation, previewDocumentOperation, renderDocumentOperation, validateDocumentOperation } from './operations';
export { previewDocument } from './preview-document';
export { renderState, requestRender } from './request-render';
export { DocumentRender } from './schemas';
