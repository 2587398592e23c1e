import { cancelDocument } from '@/lib/domain/documents/cancel-document';
import { cancelDocumentOperation } from '@/lib/domain/documents/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(cancelDocumentOperation, async ({ db, orgId, params }) => ok(await cancelDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
