import { createDocument } from '@/lib/domain/documents/create-document';
import { listDocuments } from '@/lib/domain/documents/list-documents';
import { createDocumentOperation, listDocumentsOperation } from '@/lib/domain/documents/operations';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listDocumentsOperation, async ({ db, orgId, query }) => ok(await listDocuments(db, orgId, query)));
export const POST = route(createDocumentOperation, async ({ db, orgId, body }) => created(await createDocument(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
