import { getDb } from '@/db/client';
import { formDocument } from '@/lib/domain/signature';

type Ctx = { params: Promise<{ slug: string }> };

/** The PDF an active form wraps, for the visitor to read before giving their e-mail. */
export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  const { slug } = await params;
  const doc = await formDocument(await getDb(), slug);
  if (!doc) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
  return new Response(doc.body, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(doc.size),
      'Content-Disposition': `inline; filename="${doc.name.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
