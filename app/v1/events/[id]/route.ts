import { getEvent } from '@/lib/platform/events/events';
import { getEventOperation } from '@/lib/platform/events/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(getEventOperation, async ({ db, orgId, params }) => ok(await getEvent(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
