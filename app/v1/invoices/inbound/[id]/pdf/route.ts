import { inboundPdf } from '@/lib/einvoicing/inbound';
import { getInboundPdfOperation } from '@/lib/einvoicing/inbound/operations';
import { methodNotAllowed, route } from '@/lib/http/handler';
import { contentDisposition, etagMatches } from '@/lib/pdf/stored-pdf';

export const GET = route(getInboundPdfOperation, async ({ req, db, orgId, params, query }) => {
  const pdf = await inboundPdf(db, orgId, params.id);
  // The file never changes once stored; revalidating costs a 304.
  const cache = { ETag: `"${pdf.etag}"`, 'Cache-Control': 'private, no-cache' };
  if (etagMatches(req.headers.get('if-none-match'), pdf.etag)) return new Response(null, { status: 304, headers: cache });
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
