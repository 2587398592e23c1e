import { getEvent, getEventOperation } from '@/lib/platform/events';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(getEventOperation, async ({ db, orgId, params }) => ok(await getEvent(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
