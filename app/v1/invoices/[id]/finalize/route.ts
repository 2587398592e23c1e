import { finalizeDocumentOperation } from '@/lib/billing/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { finalizeAndQueueRender } from '@/lib/pdf/request-render';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => ok(await finalizeAndQueueRender(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
