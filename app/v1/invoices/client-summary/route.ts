import { clientSummary, clientSummaryOperation } from '@/lib/domain/stats';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(clientSummaryOperation, async ({ db, orgId, query }) => ok(await clientSummary(db, orgId, query.contact_id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
