import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { createEndpoint, createEndpointOperation, listEndpoints, listEndpointsOperation } from '@/lib/domain/webhooks';

export const GET = route(listEndpointsOperation, async ({ db, orgId, query }) => ok(await listEndpoints(db, orgId, query)));
export const POST = route(createEndpointOperation, async ({ db, orgId, body }) => created(await createEndpoint(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
