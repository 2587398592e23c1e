import { activateRecurringOperation, activateRecurringTemplate } from '@/lib/domain/recurring';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(activateRecurringOperation, async ({ db, orgId, params }) => ok(await activateRecurringTemplate(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
