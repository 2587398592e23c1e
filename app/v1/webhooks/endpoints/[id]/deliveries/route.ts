import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { listDeliveries } from '@/lib/webhooks/endpoints';
import { listDeliveriesOperation } from '@/lib/webhooks/operations';

export const GET = route(listDeliveriesOperation, async ({ db, orgId, params, query }) => ok(await listDeliveries(db, orgId, params.id, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
