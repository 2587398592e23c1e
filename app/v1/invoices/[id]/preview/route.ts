import { methodNotAllowed, route } from '@/lib/platform/next';
import { contentDisposition, previewDocument, previewDocumentOperation } from '@/lib/domain/pdf';

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
