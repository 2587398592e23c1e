import { methodNotAllowed, route } from '@/lib/http/handler';
import { previewDocumentOperation } from '@/lib/pdf/operations';
import { previewDocument } from '@/lib/pdf/preview-document';
import { contentDisposition } from '@/lib/pdf/stored-pdf';

export const GET = route(previewDocumentOperation, async ({ db, orgId, params, query }) => {
  const preview = await previewDocument(db, orgId, params.id);
  return new Response(Buffer.from(preview.pdf), {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(preview.pdf.byteLength),
      'Content-Disposition': contentDisposition(preview.fileName, query.download),
      // Rendered for this request only (a draft changes): never cached.
      'Cache-Control': 'no-store',
    },
  });
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
