import { finalizeDocument } from '@/lib/domain/documents/finalize-document';
import { finalizeDocumentOperation } from '@/lib/domain/documents/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => ok(await finalizeDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
