import { statsOperation } from '@/lib/billing/operations';
import { invoiceStats } from '@/lib/billing/stats';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(statsOperation, async ({ db, orgId, query }) => ok(await invoiceStats(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
