import { createDocument, createDocumentOperation, listDocuments, listDocumentsOperation } from '@/lib/domain/documents';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listDocumentsOperation, async ({ db, orgId, query }) => ok(await listDocuments(db, orgId, query)));
export const POST = route(createDocumentOperation, async ({ db, orgId, body }) => created(await createDocument(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
