import { deleteDocument, deleteDocumentOperation, getDocument, getDocumentOperation, updateDocument, updateDocumentOperation } from '@/lib/domain/documents';
import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';

export const GET = route(getDocumentOperation, async ({ db, orgId, params }) => ok(await getDocument(db, orgId, params.id)));
export const PATCH = route(updateDocumentOperation, async ({ db, orgId, params, body }) => ok(await updateDocument(db, orgId, params.id, body)));
export const DELETE = route(deleteDocumentOperation, async ({ db, orgId, params }) => {
  await deleteDocument(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
