import { methodNotAllowed, route } from '@/lib/platform/next';
import { storedPdfResponse } from '@/lib/domain/pdf';
import { originalPdf, getOriginalDocumentOperation } from '@/lib/domain/signature';

// ETag: the file's SHA-256; If-None-Match answers 304.
export const GET = route(getOriginalDocumentOperation, async ({ req, db, orgId, params, query }) => storedPdfResponse(req, await originalPdf(db, orgId, params.id), query.download));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
