import { revenueOperation } from '@/lib/billing/operations';
import { revenueByMonth } from '@/lib/billing/stats';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(revenueOperation, async ({ db, orgId, query }) => ok(await revenueByMonth(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
