import { cancelDocumentOperation } from '@/lib/billing/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { cancelAndQueueRender } from '@/lib/pdf/request-render';

export const POST = route(cancelDocumentOperation, async ({ db, orgId, params }) => ok(await cancelAndQueueRender(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
