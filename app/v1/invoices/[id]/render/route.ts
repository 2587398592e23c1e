import { accepted, methodNotAllowed, route } from '@/lib/platform/next';
import { renderDocumentOperation, requestRender } from '@/lib/domain/pdf';

export const POST = route(renderDocumentOperation, async ({ db, orgId, params }) => accepted(await requestRender(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
