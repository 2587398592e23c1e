import { finalizeDocument, finalizeDocumentOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => ok(await finalizeDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
