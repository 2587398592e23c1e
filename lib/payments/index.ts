import { BillingDocument } from '@/lib/documents';
import { defineModule } from '@/lib/manifest';
import { paymentOperations } from './operations';
import { Payment } from './schemas';

/** Payments recorded against an invoice or a deposit invoice, and the status they give it. */
export const manifest = defineModule({
  name: 'payments',
  operations: paymentOperations,
  events: { 'invoice.paid': BillingDocument, 'payment.recorded': Payment, 'payment.deleted': Payment },
});

export { paymentOperations } from './operations';
