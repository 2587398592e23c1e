import {
  deleteRecurringOperation,
  deleteRecurringTemplate,
  getRecurringOperation,
  getRecurringTemplate,
  updateRecurringOperation,
  updateRecurringTemplate,
} from '@/lib/domain/recurring';
import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';

export const GET = route(getRecurringOperation, async ({ db, orgId, params }) => ok(await getRecurringTemplate(db, orgId, params.id)));
export const PATCH = route(updateRecurringOperation, async ({ db, orgId, params, body }) => ok(await updateRecurringTemplate(db, orgId, params.id, body)));
export const DELETE = route(deleteRecurringOperation, async ({ db, orgId, params }) => {
  await deleteRecurringTemplate(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
