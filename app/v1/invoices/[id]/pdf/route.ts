import { methodNotAllowed, route } from '@/lib/http/handler';
import { getDocumentPdfOperation } from '@/lib/pdf/operations';
import { contentDisposition, etagMatches, storedPdf } from '@/lib/pdf/stored-pdf';

export const GET = route(getDocumentPdfOperation, async ({ req, db, orgId, params, query }) => {
  const pdf = await storedPdf(db, orgId, params.id);
  const etag = `"${pdf.sha256}"`;
  // The file never changes once stored; revalidating costs a 304.
  const cache = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  if (etagMatches(req.headers.get('if-none-match'), pdf.sha256)) return new Response(null, { status: 304, headers: cache });
  const object = await pdf.open();
  return new Response(object.body, {
    status: 200,
    headers: {
      ...cache,
      'Content-Type': 'application/pdf',
      'Content-Length': String(object.size),
      'Content-Disposition': contentDisposition(pdf.fileName, query.download),
    },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
