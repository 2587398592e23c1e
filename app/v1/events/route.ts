import { listEvents } from '@/lib/events/events';
import { listEventsOperation } from '@/lib/events/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(listEventsOperation, async ({ db, orgId, query }) => ok(await listEvents(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
