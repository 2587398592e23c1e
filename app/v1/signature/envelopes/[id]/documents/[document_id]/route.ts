import { methodNotAllowed, noContent, route } from '@/lib/platform/next';
import { detachDocument, detachDocumentOperation } from '@/lib/domain/signature';

export const DELETE = route(detachDocumentOperation, async ({ db, orgId, params }) => {
  await detachDocument(db, orgId, params.id, params.document_id);
  return noContent();
});
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
