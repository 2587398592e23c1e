import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { addManualReminder, createReminderOperation, listReminders, listRemindersOperation } from '@/lib/domain/reminders';

export const GET = route(listRemindersOperation, async ({ db, orgId, params, query }) => ok(await listReminders(db, orgId, params.id, query)));
export const POST = route(createReminderOperation, async ({ db, orgId, params, body }) => created(await addManualReminder(db, orgId, params.id, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
