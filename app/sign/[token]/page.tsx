import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/platform/errors';
import { payLanguage } from '@/lib/domain/payments';
import { openSession } from '@/lib/domain/signature';
import { type End, SignView } from './sign-view';
import { SIGN_TEXTS } from './texts';
import '../../pay/pay.css';
import '../sign.css';

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// Per request, never prerendered: the language comes from the request, and the scripts carry its CSP nonce.
export const dynamic = 'force-dynamic';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const [query, h] = await Promise.all([searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  return { title: { absolute: SIGN_TEXTS[lang].pageTitle }, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

/**
 * /sign/<token>: public, no account (DESIGN §12). The page is a client of /api/sign/<token>/…, like an embedded
 * integration. The server picks the language (?lang=, else the browser's, else French) and looks the link up without
 * acting on it: an unknown link is a 404 page, a dead one says so at once (a page cannot answer 410; the API does).
 */
export default async function SignPage({ params, searchParams }: Props) {
  const [{ token }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  let end: End | null = null;
  try {
    await openSession(await getDb(), token);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 404) notFound();
    if (err.status !== 410) throw err;
    end = 'expired';
  }
  return <SignView token={token} initialLang={lang} initialEnd={end} />;
}
