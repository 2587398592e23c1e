import { getDb } from '@/db/client';
import { clientAddress } from '@/lib/platform/auth';
import { ApiError } from '@/lib/platform/errors';
import { openPayCheckout, PAY_TEXTS, PayCheckoutForm, payLanguage, payPageUrl } from '@/lib/domain/payments';
import { messagePage } from '../message-page';
import { log } from '@/lib/platform/log';

type Ctx = { params: Promise<{ token: string }> };

/**
 * The "Payer par carte / par prélèvement SEPA" forms of /pay/<token>: 303 to the provider's hosted checkout, or back
 * to the page when the document cannot be paid online now; the refusals are pages a browser shows.
 */
export async function POST(req: Request, { params }: Ctx): Promise<Response> {
  const { token } = await params;
  const fields = Object.fromEntries(new URLSearchParams(await req.text().catch(() => '')));
  const lang = payLanguage(fields.lang, req.headers.get('accept-language'));
  const t = PAY_TEXTS[lang];
  const back = { href: payPageUrl(token, lang), label: t.back };
  const form = PayCheckoutForm.safeParse({ ...fields, lang });
  if (!form.success) return messagePage(400, [{ lang, title: t.badMethodTitle, text: t.badMethodText, back }]);
  try {
    const { location } = await openPayCheckout(await getDb(), token, form.data, clientAddress(req.headers));
    return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'not_found') return messagePage(404, [{ lang, title: t.notFoundTitle, text: t.notFoundText }]);
    if (err.status === 429) {
      const minutes = Math.max(1, Math.ceil(Number(err.headers['Retry-After'] ?? 60) / 60));
      return messagePage(429, [{ lang, title: t.tooManyTitle, text: t.tooManyText(minutes), back }], err.headers);
    }
    log.error(err, 'pay checkout: the provider refused or failed');
    return messagePage(502, [{ lang, title: t.providerErrorTitle, text: t.providerErrorText, back }]);
  }
}

/** The page is the way in: a GET here (a reload after the redirect, a shared URL) goes back to it. */
export async function GET(req: Request, { params }: Ctx): Promise<Response> {
  const { token } = await params;
  const lang = payLanguage(new URL(req.url).searchParams.get('lang'), req.headers.get('accept-language'));
  return new Response(null, { status: 303, headers: { Location: payPageUrl(token, lang), 'Cache-Control': 'no-store' } });
}
