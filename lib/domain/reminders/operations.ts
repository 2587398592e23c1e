import { IdParams, operation } from '@/lib/platform/contract';
import { NoQuery, Reminder, ReminderCreate, ReminderList, ReminderListQuery, ReminderParams, Tracking } from './schemas';

const tag = 'Invoices';

export const listRemindersOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/reminders',
  tag,
  summary: "A document's reminders: its ladder and manual ones",
  description:
    'Ladder steps and manual reminders, whatever their status (pending, sent, skipped, cancelled), newest first, cursor-paginated ' +
    '(limit 1–100, default 50; meta.next_cursor).',
  scope: 'invoice:read',
  params: IdParams,
  query: ReminderListQuery,
  responses: { 200: { description: 'A page of reminders.', schema: ReminderList } },
  errors: [[422, 'invalid_cursor']],
});

export const createReminderOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/reminders',
  tag,
  summary: 'Add a manual reminder, now or at a time',
  description:
    'A payment reminder for a finalized or sent invoice or deposit invoice with a due date, a quote-expiry reminder for an open quote. ' +
    'Sent by the dispatcher when due (within the minute for now), unless the document is settled by then.',
  scope: 'invoice:write',
  params: IdParams,
  body: ReminderCreate.prefault({}),
  responses: { 201: { description: 'The reminder, pending.', schema: Reminder } },
  errors: [
    [409, 'not_finalized'],
    [409, 'not_remindable'],
    [409, 'reminder_opt_out'],
    [409, 'too_many_reminders'],
  ],
});

export const deleteReminderOperation = operation({
  method: 'delete',
  path: '/v1/invoices/{id}/reminders/{reminder_id}',
  tag,
  summary: 'Cancel a pending reminder',
  description: 'It stays in the list, cancelled (reason deleted). A reminder already sent, skipped or cancelled is 409 reminder_not_pending.',
  scope: 'invoice:write',
  params: ReminderParams,
  query: NoQuery,
  responses: { 200: { description: 'The cancelled reminder.', schema: Reminder } },
  errors: [[409, 'reminder_not_pending']],
});

export const trackingOperation = operation({
  method: 'get',
  path: '/v1/invoices/reminders/tracking',
  tag,
  summary: 'Documents to chase, most urgent first',
  description:
    'The unpaid invoices and deposit invoices (finalized or sent, balance > 0) that have reminders, and every overdue one (due date before ' +
    'today, Europe/Paris) even without any: exhausted ladders first, then the overdue without reminders (sent_count and pending_count 0), ' +
    'then the most overdue, then the soonest next reminder (remaining ties: the sooner due date, then the oldest document); at most 20 rows. ' +
    'days_overdue is floored at 0; balance_cents = total_ttc − payments − the finalized credit note, always > 0 here.',
  scope: 'invoice:read',
  query: NoQuery,
  responses: { 200: { description: 'The rows.', schema: Tracking } },
});

export const reminderOperations = [listRemindersOperation, createReminderOperation, deleteReminderOperation, trackingOperation];
