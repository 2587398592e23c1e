import { getDb } from '@/db/client';
import { ApiError } from '@/lib/platform/errors';
import { PAY_TEXTS, payLanguage, payLinkTarget } from '@/lib/domain/payments';
import { contentDisposition, storedPdf } from '@/lib/domain/pdf';
import { messagePage } from '../message-page';

/** The document's sealed PDF for whoever holds its payment link (the file of record, streamed from storage). */
export async function GET(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const lang = payLanguage(new URL(req.url).searchParams.get('lang'), req.headers.get('accept-language'));
  const t = PAY_TEXTS[lang];
  const db = await getDb();
  const target = await payLinkTarget(db, token);
  if (!target) return messagePage(404, (['fr', 'en'] as const).map((l) => ({ lang: l, title: PAY_TEXTS[l].notFoundTitle, text: PAY_TEXTS[l].notFoundText })));
  let pdf: Awaited<ReturnType<typeof storedPdf>>;
  try {
    pdf = await storedPdf(db, target.org_id, target.document_id);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'pdf_not_ready') throw err;
    const back = { href: `/pay/${token}${lang === 'en' ? '?lang=en' : ''}`, label: t.back };
    return messagePage(503, [{ lang, title: t.pdfNotReadyTitle, text: t.pdfNotReadyText, back }], { 'Retry-After': '10' });
  }
  const object = await pdf.open();
  return new Response(object.body, {
    status: 200,
    headers: {
      'Cache-Control': 'no-store',
      'Content-Type': 'application/pdf',
      'Content-Length': String(object.size),
      'Content-Disposition': contentDisposition(pdf.fileName, true),
    },
  });
}
