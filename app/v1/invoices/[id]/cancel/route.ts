import { cancelDocument, cancelDocumentOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(cancelDocumentOperation, async ({ db, orgId, params }) => ok(await cancelDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
