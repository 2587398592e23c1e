import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { listDeliveries, listDeliveriesOperation } from '@/lib/domain/webhooks';

export const GET = route(listDeliveriesOperation, async ({ db, orgId, params, query }) => ok(await listDeliveries(db, orgId, params.id, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
