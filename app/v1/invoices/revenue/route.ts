import { revenueOperation } from '@/lib/stats/operations';
import { revenueByMonth } from '@/lib/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(revenueOperation, async ({ db, orgId, query }) => ok(await revenueByMonth(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
