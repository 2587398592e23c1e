import { revenueOperation } from '@/lib/domain/stats/operations';
import { revenueByMonth } from '@/lib/domain/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(revenueOperation, async ({ db, orgId, query }) => ok(await revenueByMonth(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
