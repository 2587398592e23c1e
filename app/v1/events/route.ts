import { listEvents } from '@/lib/platform/events/events';
import { listEventsOperation } from '@/lib/platform/events/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listEventsOperation, async ({ db, orgId, query }) => ok(await listEvents(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
