import { createDocument } from '@/lib/documents/create-document';
import { listDocuments } from '@/lib/documents/list-documents';
import { createDocumentOperation, listDocumentsOperation } from '@/lib/documents/operations';
import { created, methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(listDocumentsOperation, async ({ db, orgId, query }) => ok(await listDocuments(db, orgId, query)));
export const POST = route(createDocumentOperation, async ({ db, orgId, body }) => created(await createDocument(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
