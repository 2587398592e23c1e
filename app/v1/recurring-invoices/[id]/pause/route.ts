import { pauseRecurringOperation, pauseRecurringTemplate } from '@/lib/domain/recurring';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(pauseRecurringOperation, async ({ db, orgId, params }) => ok(await pauseRecurringTemplate(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
