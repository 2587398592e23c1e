import { duplicateDocument, duplicateDocumentOperation } from '@/lib/domain/documents';
import { created, methodNotAllowed, route } from '@/lib/platform/next';

export const POST = route(duplicateDocumentOperation, async ({ db, orgId, params }) => created(await duplicateDocument(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
