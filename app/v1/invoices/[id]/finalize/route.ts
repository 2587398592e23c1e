import { finalizeDocument } from '@/lib/documents/finalize-document';
import { finalizeDocumentOperation } from '@/lib/documents/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => ok(await finalizeDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
