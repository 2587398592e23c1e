import { documents } from '@/db/schema';
import { defineModule } from '@/lib/manifest';
import { expireQuotesJob } from './expire-quotes';
import { billingOperations } from './operations';
import { BillingDocument, Payment } from './schemas';

export const manifest = defineModule({
  name: 'billing',
  operations: billingOperations,
  jobs: [expireQuotesJob],
  events: {
    'invoice.created': BillingDocument,
    'invoice.updated': BillingDocument,
    'invoice.finalized': BillingDocument,
    'invoice.paid': BillingDocument,
    'invoice.cancelled': BillingDocument,
    'quote.accepted': BillingDocument,
    'quote.rejected': BillingDocument,
    'quote.expired': BillingDocument,
    'quote.converted': BillingDocument,
    'payment.recorded': Payment,
    'payment.deleted': Payment,
  },
  contactReferences: [{ resource: 'billing_documents', table: documents, column: documents.contact_id }],
});
