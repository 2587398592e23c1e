import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { payLanguage } from '@/lib/domain/payments';
import { loadPublicForm } from '@/lib/domain/signature';
import { FormClosed, FormShell, one } from './form-shell';
import { errorText, FORM_TEXTS } from './texts';
import '../../../pay/pay.css';
import { Button } from '@/components/ui';

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// Per request: the form's state is read at each visit.
export const dynamic = 'force-dynamic';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const [query, h] = await Promise.all([searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  return { title: { absolute: FORM_TEXTS[lang].pageTitle }, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

/**
 * /sign/forms/<slug>: public, no account, no script needed (issue 19). The visitor's name and e-mail post to
 * ./start, which e-mails a code and leads to ./verify; the code leads to /sign/<token>.
 */
export default async function SignatureFormPage({ params, searchParams }: Props) {
  const [{ slug }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  const t = FORM_TEXTS[lang];
  const found = await loadPublicForm(await getDb(), slug);
  if (!found) return <FormClosed lang={lang} title={t.notFoundTitle} text={t.notFoundText} />;
  if (!found.form.active) return <FormClosed lang={lang} title={t.inactiveTitle} text={t.inactiveText(found.org_name)} />;
  const field = one(query.field);
  const error = errorText(lang, one(query.error), field);
  const sms = found.form.verification_method === 'sms_otp';
  const invalid = (name: string) => (error && field === name ? { 'aria-invalid': true, 'aria-describedby': 'form-error' } : {});
  return (
    <FormShell lang={lang} switchHref={`/sign/forms/${slug}?lang=${t.switchTo.lang}`}>
      <section className="card" aria-labelledby="form-title">
        <p className="muted pay-issued-by">{t.proposedBy(found.org_name)}</p>
        <h1 id="form-title">{found.form.title}</h1>
        <p>
          {t.document(found.document.page_count)} :{' '}
          <a href={`/sign/forms/${slug}/document`} target="_blank" rel="noopener">
            {t.open} <span className="sr-only">({found.document.name})</span>
          </a>
        </p>
      </section>
      <section className="card" aria-labelledby="form-fill">
        <h2 id="form-fill">{t.submit}</h2>
        <p>{t.intro}</p>
        {error && (
          <p id="form-error" className="notice notice-warning" role="alert">
            {error}
          </p>
        )}
        <form className="form stack" method="post" action={`/sign/forms/${slug}/start`}>
          <input type="hidden" name="lang" value={lang} />
          <div className="field" data-invalid={field === 'full_name' || undefined}>
            <label htmlFor="full_name">{t.fullName}</label>
            <input id="full_name" name="full_name" type="text" autoComplete="name" required maxLength={200} {...invalid('full_name')} />
          </div>
          <div className="field" data-invalid={field === 'email' || undefined}>
            <label htmlFor="email">{t.email}</label>
            <input id="email" name="email" type="email" autoComplete="email" required maxLength={254} {...invalid('email')} />
          </div>
          {sms && (
            <div className="field" data-invalid={field === 'phone' || undefined}>
              <label htmlFor="phone">{t.phone}</label>
              <input id="phone" name="phone" type="tel" autoComplete="tel" required pattern="\+[1-9][0-9]{6,14}" aria-describedby="phone-hint" {...invalid('phone')} />
              <span id="phone-hint" className="hint">
                {t.phoneHint}
              </span>
            </div>
          )}
          {/* The honeypot: off-screen and hidden from assistive technology; people never fill it, robots do. */}
          <div className="sr-only" aria-hidden="true">
            <label htmlFor="website">{t.honeypot}</label>
            <input id="website" name="website" type="text" tabIndex={-1} autoComplete="off" style={{ width: 1, height: 1 }} />
          </div>
          <div className="form-actions">
            <Button type="submit" variant="primary">
              {t.submit}
            </Button>
          </div>
        </form>
      </section>
    </FormShell>
  );
}
