import { BillingDocument } from '@/lib/domain/documents';
import { PageQuery } from '@/lib/platform/http';
import { IdParams, operation, pageOf } from '@/lib/platform/contract';
import { RecurringGeneration, RecurringListQuery, RecurringTemplate, RecurringTemplateCreate, RecurringTemplatePatch } from './schemas';

const tag = 'Recurring invoices';
const template = (description: string) => ({ description, schema: RecurringTemplate });

export const listRecurringOperation = operation({
  method: 'get',
  path: '/v1/recurring-invoices',
  tag,
  summary: 'List recurring invoice templates, newest first',
  description: 'Cursor-paginated (limit 1–100, default 50; meta.next_cursor). Filters: status (active or paused), contact_id.',
  scope: 'invoice:read',
  query: RecurringListQuery,
  responses: { 200: { description: 'A page of templates.', schema: pageOf(RecurringTemplate, 'RecurringTemplatePage') } },
  errors: [[422, 'invalid_cursor']],
});

export const createRecurringOperation = operation({
  method: 'post',
  path: '/v1/recurring-invoices',
  tag,
  summary: 'Create a recurring invoice template',
  description:
    'Active at once: a draft facture is generated on next_generation_date (checked hourly, Europe/Paris), then every month, quarter ' +
    'or year on the same day of month (the last day of a shorter month). The contact must be a live contact of the org (422 on contact_id).',
  scope: 'invoice:write',
  body: RecurringTemplateCreate,
  responses: { 201: template('The template.') },
});

export const getRecurringOperation = operation({
  method: 'get',
  path: '/v1/recurring-invoices/{id}',
  tag,
  summary: 'Retrieve a recurring invoice template',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: template('The template.') },
});

export const updateRecurringOperation = operation({
  method: 'patch',
  path: '/v1/recurring-invoices/{id}',
  tag,
  summary: 'Update a recurring invoice template',
  description: 'Invoices already generated do not change.',
  scope: 'invoice:write',
  params: IdParams,
  body: RecurringTemplatePatch.prefault({}),
  responses: { 200: template('The updated template.') },
});

export const deleteRecurringOperation = operation({
  method: 'delete',
  path: '/v1/recurring-invoices/{id}',
  tag,
  summary: 'Delete a recurring invoice template',
  description: 'The invoices it generated stay.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 204: { description: 'Deleted.' } },
});

export const activateRecurringOperation = operation({
  method: 'post',
  path: '/v1/recurring-invoices/{id}/activate',
  tag,
  summary: 'Activate a paused template',
  description:
    'Generation resumes on the first anchor date on or after today (Europe/Paris): the periods that passed while it was paused are not ' +
    'generated. Idempotent.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: template('The template, active.') },
});

export const pauseRecurringOperation = operation({
  method: 'post',
  path: '/v1/recurring-invoices/{id}/pause',
  tag,
  summary: 'Pause a template',
  description: 'Nothing is generated while paused. Idempotent (paused_at keeps the first pause).',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: template('The template, paused.') },
});

export const runRecurringOperation = operation({
  method: 'post',
  path: '/v1/recurring-invoices/{id}/run',
  tag,
  summary: 'Generate the current period now',
  description:
    "Generates the template's current period (its next_generation_date) now, then the date advances by the frequency. With auto_send the " +
    'invoice is finalized and e-mailed (and with auto_collect_sepa debited) before the answer; a failed send or debit is recorded on the ' +
    'template (last_error) and its history, and the document is answered as it stands.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 201: { description: 'The generated billing document.', schema: BillingDocument } },
  // A period the template can no longer generate (its contact or a product gone, a line now invalid).
  errors: [[422, 'validation_error']],
});

export const listGenerationsOperation = operation({
  method: 'get',
  path: '/v1/recurring-invoices/{id}/generations',
  tag,
  summary: "A template's generations: the invoices it made and its failures",
  description: 'Extension. Newest first, cursor-paginated. One per period ever generated (the exactly-once key).',
  scope: 'invoice:read',
  params: IdParams,
  query: PageQuery,
  responses: { 200: { description: 'A page of generations.', schema: pageOf(RecurringGeneration, 'RecurringGenerationPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const recurringOperations = [
  listRecurringOperation,
  createRecurringOperation,
  getRecurringOperation,
  updateRecurringOperation,
  deleteRecurringOperation,
  activateRecurringOperation,
  pauseRecurringOperation,
  runRecurringOperation,
  listGenerationsOperation,
];
