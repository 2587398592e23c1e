import { documentFlow } from '@/lib/documents/document-flow';
import { documentFlowOperation } from '@/lib/documents/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(documentFlowOperation, async ({ db, orgId, params }) => ok(await documentFlow(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
