import { revenueByClient, revenueByClientOperation } from '@/lib/domain/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(revenueByClientOperation, async ({ db, orgId, query }) => ok(await revenueByClient(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
