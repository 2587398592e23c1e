import { methodNotAllowed, route } from '@/lib/platform/next';
import { storedPdfResponse } from '@/lib/domain/pdf';
import { signedPdf, getSignedDocumentOperation } from '@/lib/domain/signature';

// ETag: the file's SHA-256; If-None-Match answers 304.
export const GET = route(getSignedDocumentOperation, async ({ req, db, orgId, params, query }) => storedPdfResponse(req, await signedPdf(db, orgId, params.id), query.download));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
