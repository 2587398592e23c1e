import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { payLanguage } from '@/lib/payments/pay-page';
import { SIGN_TEXTS } from './texts';
import { SignView } from './sign-view';
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
 * integration: the server only picks the language (?lang=, else the browser's, else French).
 */
export default async function SignPage({ params, searchParams }: Props) {
  const [{ token }, query, h] = await Promise.all([params, searchParams, headers()]);
  return <SignView token={token} initialLang={payLanguage(query.lang, h.get('accept-language'))} />;
}
