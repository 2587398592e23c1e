import { duplicateDocument } from '@/lib/domain/documents/duplicate-document';
import { duplicateDocumentOperation } from '@/lib/domain/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/platform/http/handler';

export const POST = route(duplicateDocumentOperation, async ({ db, orgId, params }) => created(await duplicateDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
