import { duplicateDocument } from '@/lib/documents/duplicate-document';
import { duplicateDocumentOperation } from '@/lib/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/http/handler';

export const POST = route(duplicateDocumentOperation, async ({ db, orgId, params }) => created(await duplicateDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
