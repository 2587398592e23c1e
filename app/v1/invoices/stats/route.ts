import { invoiceStats, statsOperation } from '@/lib/domain/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(statsOperation, async ({ db, orgId, query }) => ok(await invoiceStats(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
