import { methodNotAllowed, route } from '@/lib/platform/next';
import { getDocumentPdfOperation, storedPdf, storedPdfResponse } from '@/lib/domain/pdf';

export const GET = route(getDocumentPdfOperation, async ({ req, db, orgId, params, query }) => {
  const pdf = await storedPdf(db, orgId, params.id);
  // ETag: the file's SHA-256.
  return storedPdfResponse(req, { ...pdf, etag: pdf.sha256 }, query.download);
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
