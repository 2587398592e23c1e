import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { payLanguage } from '@/lib/domain/payments';
import { signerLinkView, type SignerOutcome } from '@/lib/domain/signature';
import { type End, endOfOutcome } from './done';
import { SignView } from './sign-view';
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
 * acting on it: an unknown link is a 404 page; a link that no longer signs says what happened at once, rendered here
 * so that it needs no script — the signer's done page with the signed PDF to download (issue 35), or why the link
 * ended (proxy.ts answers those with 410 before this page; a page cannot).
 */
export default async function SignPage({ params, searchParams }: Props) {
  const [{ token }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  const link = await signerLinkView(await getDb(), token);
  if (link.view === 'unknown') notFound();
  let end: End | null = null;
  let outcome: SignerOutcome | null = null;
  if (link.view === 'done') {
    outcome = link.outcome;
    end = endOfOutcome(outcome);
  }
  return <SignView token={token} initialLang={lang} initialEnd={end} initialOutcome={outcome} />;
}
