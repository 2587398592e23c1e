import { randomUUID } from 'node:crypto';
import { getDb } from '@/db/client';
import { clientAddress } from '@/lib/platform/auth';
import { ApiError } from '@/lib/platform/errors';
import { payLanguage } from '@/lib/domain/payments';
import { maskEmail, startFormSubmission, suggestEmail } from '@/lib/domain/signature';

type Ctx = { params: Promise<{ slug: string }> };

const see = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', ...headers } });

/**
 * The form's post (no script needed): 303 to the code page, or back to the form with the error in the query (its code
 * and field only: what the visitor typed never goes into a URL).
 */
export async function POST(req: Request, { params }: Ctx): Promise<Response> {
  const { slug } = await params;
  const fields = Object.fromEntries(new URLSearchParams(await req.text().catch(() => '')));
  const lang = payLanguage(fields.lang, req.headers.get('accept-language'));
  const ctx = { ip: clientAddress(req.headers), userAgent: req.headers.get('user-agent')?.slice(0, 500) ?? null, lang };
  try {
    const started = await startFormSubmission(await getDb(), slug, fields, ctx);
    // A robot (honeypot filled) is led on the same way, with a submission that does not exist.
    const id = started?.id ?? randomUUID();
    const to = started?.sent_to ?? maskEmail(String(fields.email ?? ''));
    // A likely typo (gmial.com): the code page asks to check the address; only the domain goes into the URL.
    const suggested = suggestEmail(String(fields.email ?? '')).suggestion?.split('@')[1];
    const query = new URLSearchParams({ s: id, to, lang, ...(suggested ? { suggest: suggested } : {}) });
    return see(`/sign/forms/${slug}/verify?${query}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const query = new URLSearchParams({ lang, error: err.code, ...(err.field ? { field: err.field } : {}) });
    return see(`/sign/forms/${slug}?${query}`, err.status === 429 ? { 'Retry-After': err.headers['Retry-After'] ?? '60' } : {});
  }
}

/** A reload of the post's URL goes back to the form. */
export async function GET(_req: Request, { params }: Ctx): Promise<Response> {
  const { slug } = await params;
  return see(`/sign/forms/${slug}`);
}
