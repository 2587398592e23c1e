import { getEvent } from '@/lib/events/events';
import { getEventOperation } from '@/lib/events/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(getEventOperation, async ({ db, orgId, params }) => ok(await getEvent(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
