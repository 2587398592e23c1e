import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { listDeliveries } from '@/lib/domain/webhooks/endpoints';
import { listDeliveriesOperation } from '@/lib/domain/webhooks/operations';

export const GET = route(listDeliveriesOperation, async ({ db, orgId, params, query }) => ok(await listDeliveries(db, orgId, params.id, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
