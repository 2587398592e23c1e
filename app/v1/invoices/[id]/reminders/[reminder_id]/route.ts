import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { deleteReminderOperation } from '@/lib/reminders/operations';
import { deleteReminder } from '@/lib/reminders/reminders';

export const DELETE = route(deleteReminderOperation, async ({ db, orgId, params }) => ok(await deleteReminder(db, orgId, params.id, params.reminder_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
