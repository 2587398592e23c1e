import { documentFlow } from '@/lib/domain/documents/document-flow';
import { documentFlowOperation } from '@/lib/domain/documents/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(documentFlowOperation, async ({ db, orgId, params }) => ok(await documentFlow(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
