import { documentFlow, documentFlowOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(documentFlowOperation, async ({ db, orgId, params }) => ok(await documentFlow(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
