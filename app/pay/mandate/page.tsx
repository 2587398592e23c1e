import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { MANDATE_TEXTS, mandatePageStatus, payLanguage } from '@/lib/domain/payments';
import '../pay.css';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/*
 * Where the provider's setup-mode Checkout sends the payer back (success_url / cancel_url of sepa-mandate-setup).
 * Public, no JavaScript; it states what happened and reads nothing: the mandate itself arrives by the provider's
 * events. A static segment, so it wins over /pay/<token>.
 */

async function view({ searchParams }: Props) {
  const [query, h] = await Promise.all([searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  return { lang, status: mandatePageStatus(query.status) };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { lang, status } = await view(props);
  return { title: { absolute: MANDATE_TEXTS[lang].pages[status].title }, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

export default async function MandateReturnPage(props: Props) {
  const { lang, status } = await view(props);
  const t = MANDATE_TEXTS[lang];
  const page = t.pages[status];
  const other = `/pay/mandate?${status === 'unknown' ? '' : `status=${status}&`}lang=${t.switchTo.href}`;
  return (
    <main className="pay-page" lang={t.htmlLang}>
      <nav className="pay-lang" aria-label={t.languageNav}>
        <a href={other} hrefLang={t.switchTo.href} lang={t.switchTo.href}>
          {t.switchTo.label}
        </a>
      </nav>
      <section className={`card notice ${status === 'success' ? 'notice-success' : status === 'cancel' ? 'notice-warning' : ''}`} aria-labelledby="mandate-title">
        <h1 id="mandate-title">{page.title}</h1>
        {page.text.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </section>
    </main>
  );
}
