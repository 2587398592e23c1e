import { recurringTemplates } from '@/db/schema';
import { defineModule } from '@/lib/platform/manifest';
import { deliverOnGenerated, recurringJobs } from './jobs';
import { recurringOperations } from './operations';
import { RecurringGeneration } from './schemas';

/** Recurring invoice templates (DESIGN §9): the hourly generation of drafts, auto-send and SEPA auto-collection. */
export const manifest = defineModule({
  name: 'recurring',
  operations: recurringOperations,
  jobs: recurringJobs,
  subscriptions: [deliverOnGenerated],
  events: {
    'recurring_invoice.generated': RecurringGeneration,
    'recurring_invoice.failed': RecurringGeneration,
  },
  contactReferences: [{ resource: 'recurring_templates', table: recurringTemplates, column: recurringTemplates.contact_id }],
});

export {
  activateRecurringTemplate,
  createRecurringTemplate,
  deleteRecurringTemplate,
  getRecurringTemplate,
  listRecurringTemplates,
  pauseRecurringTemplate,
  updateRecurringTemplate,
} from './templates';
export { runRecurringTemplate } from './run';
export { listRecurringGenerations } from './generations';
export { enqueueDueTemplates } from './jobs';
export { generateDueTemplates } from './schedule';
export { deliverGeneration } from './deliver';
export { firstDateOnOrAfter, nextGenerationDate } from './schedule-dates';
export { type HistoryEntry, type TemplateContact, templateContacts, templateHistory } from './backoffice-queries';
export * from './operations';
export {
  RECURRING_FREQUENCIES,
  RECURRING_STATUSES,
  RecurringGeneration,
  RecurringListQuery,
  RecurringTemplate,
  RecurringTemplateCreate,
  RecurringTemplatePatch,
  TemplateLine,
} from './schemas';
