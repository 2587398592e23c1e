import { statsOperation } from '@/lib/domain/stats/operations';
import { invoiceStats } from '@/lib/domain/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(statsOperation, async ({ db, orgId, query }) => ok(await invoiceStats(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
