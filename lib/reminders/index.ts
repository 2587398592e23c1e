import { defineModule } from '@/lib/manifest';
import { BillingDocument } from '@/lib/billing/schemas';
import { dispatchRemindersJob } from './jobs';
import { reminderOperations } from './operations';

export const manifest = defineModule({
  name: 'reminders',
  operations: reminderOperations,
  jobs: [dispatchRemindersJob],
  events: { 'invoice.sent': BillingDocument },
});
