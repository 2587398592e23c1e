import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { deleteReminder, deleteReminderOperation } from '@/lib/domain/reminders';

export const DELETE = route(deleteReminderOperation, async ({ db, orgId, params }) => ok(await deleteReminder(db, orgId, params.id, params.reminder_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
