import { revenueByClientOperation } from '@/lib/domain/stats/operations';
import { revenueByClient } from '@/lib/domain/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(revenueByClientOperation, async ({ db, orgId, query }) => ok(await revenueByClient(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
