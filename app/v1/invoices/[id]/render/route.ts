import { accepted, methodNotAllowed, route } from '@/lib/platform/http/handler';
import { renderDocumentOperation } from '@/lib/domain/pdf/operations';
import { requestRender } from '@/lib/domain/pdf/request-render';

export const POST = route(renderDocumentOperation, async ({ db, orgId, params }) => accepted(await requestRender(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
