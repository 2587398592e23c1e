import { revenueByMonth, revenueOperation } from '@/lib/domain/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(revenueOperation, async ({ db, orgId, query }) => ok(await revenueByMonth(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
