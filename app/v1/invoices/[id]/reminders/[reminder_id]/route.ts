import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { deleteReminderOperation } from '@/lib/domain/reminders/operations';
import { deleteReminder } from '@/lib/domain/reminders/reminders';

export const DELETE = route(deleteReminderOperation, async ({ db, orgId, params }) => ok(await deleteReminder(db, orgId, params.id, params.reminder_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
