import { listEvents, listEventsOperation } from '@/lib/platform/events';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listEventsOperation, async ({ db, orgId, query }) => ok(await listEvents(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
