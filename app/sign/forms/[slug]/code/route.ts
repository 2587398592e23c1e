import { getDb } from '@/db/client';
import { clientAddress } from '@/lib/platform/auth';
import { ApiError } from '@/lib/platform/errors';
import { payLanguage } from '@/lib/domain/payments';
import { verifyFormSubmission } from '@/lib/domain/signature';

type Ctx = { params: Promise<{ slug: string }> };

const see = (location: string) => new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

/** The code's post: 303 to the signing page /sign/<token>, or back to the code page with the error. */
export async function POST(req: Request, { params }: Ctx): Promise<Response> {
  const { slug } = await params;
  const fields = Object.fromEntries(new URLSearchParams(await req.text().catch(() => '')));
  const lang = payLanguage(fields.lang, req.headers.get('accept-language'));
  const submission = String(fields.s ?? '');
  const ctx = { ip: clientAddress(req.headers), userAgent: req.headers.get('user-agent')?.slice(0, 500) ?? null, lang };
  try {
    const { url } = await verifyFormSubmission(await getDb(), slug, submission, String(fields.code ?? ''), ctx);
    return see(`${url}?lang=${lang}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === 'form_inactive' || err.code === 'not_found') return see(`/sign/forms/${slug}?lang=${lang}`);
    const query = new URLSearchParams({ s: submission, lang, error: err.code });
    return see(`/sign/forms/${slug}/verify?${query}`);
  }
}

export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  const { slug } = await params;
  return see(`/sign/forms/${slug}`);
}
