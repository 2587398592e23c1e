import { defineModule } from '@/lib/manifest';
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
export { type EInvoiceError, type EInvoiceLayer, einvoiceValidationStats, validateEInvoice } from './facturx/einvoice-validation';

export { type DocumentPdf, documentPdfForSending, readStoredPdf } from './document-pdf';

export { renderStoredDocument } from './render-stored-document';
