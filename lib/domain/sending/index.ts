import { BillingDocument } from '@/lib/domain/documents';
import { defineModule } from '@/lib/platform/manifest';
import { sendingOperations } from './operations';

/** Sending a document to its client: the e-mail with its PDF, the status `sent`, the reminder ladder armed. */
export const manifest = defineModule({
  name: 'sending',
  operations: sendingOperations,
  events: { 'invoice.sent': BillingDocument },
});

export { sendDocumentOperation } from './operations';
export { previewSend, type SendOptions, type SendPreview, sendDocument, sendRefusal } from './send-document';
export { SendDocumentInput, SendDocumentResult } from './schemas';
