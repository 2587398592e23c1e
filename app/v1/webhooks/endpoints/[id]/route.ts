import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';
import { deleteEndpoint, deleteEndpointOperation, getEndpoint, getEndpointOperation, updateEndpoint, updateEndpointOperation } from '@/lib/domain/webhooks';

export const GET = route(getEndpointOperation, async ({ db, orgId, params }) => ok(await getEndpoint(db, orgId, params.id)));
export const PATCH = route(updateEndpointOperation, async ({ db, orgId, params, body }) => ok(await updateEndpoint(db, orgId, params.id, body)));
export const DELETE = route(deleteEndpointOperation, async ({ db, orgId, params }) => {
  await deleteEndpoint(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
