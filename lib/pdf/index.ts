import { defineModule } from '@/lib/manifest';
import { renderDocumentJob, renderOnFinalize } from './jobs';
import { pdfOperations } from './operations';

export const manifest = defineModule({
  name: 'pdf',
  operations: pdfOperations,
  jobs: [renderDocumentJob],
  subscriptions: [renderOnFinalize],
});

export { type DocumentPdf, documentPdfForSending, readStoredPdf } from './document-pdf';

export { renderStoredDocument } from './render-stored-document';
