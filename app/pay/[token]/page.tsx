import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { loadPayPage, PAY_TEXTS, payLanguage, returnNotice } from '@/lib/domain/payments';
import { PayView } from './pay-view';
import '../pay.css';

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The metadata and the page of one request share one read.
const load = cache(async (token: string) => loadPayPage(await getDb(), token));

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

// Per request, never prerendered: the page reads the database (and the proxy's nonce).
export const dynamic = 'force-dynamic';

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [{ token }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  const page = await load(token);
  const title = page ? `${PAY_TEXTS[lang].kind[page.document.type]} ${page.document.number} · ${page.seller.name}` : PAY_TEXTS[lang].notFoundTitle;
  return { title: { absolute: title }, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

/** /pay/<token>: public, no session, no script needed (DESIGN §8). */
export default async function PayPage({ params, searchParams }: Props) {
  const [{ token }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  const page = await load(token);
  if (!page) notFound();
  const notice = await returnNotice(await getDb(), page, one(query.status), one(query.session));
  return <PayView token={token} page={page} lang={lang} notice={notice} />;
}
