import { revenueByClientOperation } from '@/lib/stats/operations';
import { revenueByClient } from '@/lib/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(revenueByClientOperation, async ({ db, orgId, query }) => ok(await revenueByClient(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
