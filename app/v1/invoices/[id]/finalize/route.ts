import { finalizeDocument } from '@/lib/billing/finalize-document';
import { finalizeDocumentOperation } from '@/lib/billing/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => ok(await finalizeDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
