import { created, methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { createEndpoint, listEndpoints } from '@/lib/domain/webhooks/endpoints';
import { createEndpointOperation, listEndpointsOperation } from '@/lib/domain/webhooks/operations';

export const GET = route(listEndpointsOperation, async ({ db, orgId, query }) => ok(await listEndpoints(db, orgId, query)));
export const POST = route(createEndpointOperation, async ({ db, orgId, body }) => created(await createEndpoint(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
