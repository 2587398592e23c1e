import { clientSummaryOperation } from '@/lib/domain/stats/operations';
import { clientSummary } from '@/lib/domain/stats/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(clientSummaryOperation, async ({ db, orgId, query }) => ok(await clientSummary(db, orgId, query.contact_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
