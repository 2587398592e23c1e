import { clientSummaryOperation } from '@/lib/stats/operations';
import { clientSummary } from '@/lib/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(clientSummaryOperation, async ({ db, orgId, query }) => ok(await clientSummary(db, orgId, query.contact_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
