import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { payLanguage } from '@/lib/domain/payments';
import { loadPublicForm, pendingSubmission } from '@/lib/domain/signature';
import { FormClosed, FormShell, one } from '../form-shell';
import { errorText, FORM_TEXTS } from '../texts';
import '../../../../pay/pay.css';
import { Button, DownloadButton } from '@/components/ui';

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const dynamic = 'force-dynamic';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const [query, h] = await Promise.all([searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  return { title: { absolute: FORM_TEXTS[lang].codeHeading }, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

/** /sign/forms/<slug>/verify?s=<submission>: the code sent by e-mail, posted to ../code. */
export default async function SignatureFormCodePage({ params, searchParams }: Props) {
  const [{ slug }, query, h] = await Promise.all([params, searchParams, headers()]);
  const lang = payLanguage(query.lang, h.get('accept-language'));
  const t = FORM_TEXTS[lang];
  const db = await getDb();
  const found = await loadPublicForm(db, slug);
  if (!found) return <FormClosed lang={lang} title={t.notFoundTitle} text={t.notFoundText} />;
  if (!found.form.active) return <FormClosed lang={lang} title={t.inactiveTitle} text={t.inactiveText(found.org_name)} />;
  const submission = one(query.s) ?? '';
  // A robot's (honeypot) or unknown submission sees the same page: nothing tells it apart.
  const pending = await pendingSubmission(db, slug, submission);
  const error = errorText(lang, one(query.error), one(query.field));
  const suggest = /^[a-z0-9.-]{3,100}$/.test(one(query.suggest) ?? '') ? one(query.suggest) : undefined;
  return (
    <FormShell lang={lang} switchHref={`/sign/forms/${slug}/verify?s=${encodeURIComponent(submission)}&lang=${t.switchTo.lang}`}>
      <section className="card" aria-labelledby="code-title">
        <p className="muted pay-issued-by">{found.form.title}</p>
        <h1 id="code-title">{t.codeHeading}</h1>
        <p>{t.codeSent(pending?.sent_to ?? one(query.to) ?? '…')}</p>
        {suggest && (
          <p className="notice notice-warning">
            {t.typo(suggest)}{' '}
            <a href={`/sign/forms/${slug}?lang=${lang}`}>{t.restart}</a>
          </p>
        )}
        {error && (
          <p id="form-error" className="notice notice-warning" role="alert">
            {error}
          </p>
        )}
        <form className="form stack" method="post" action={`/sign/forms/${slug}/code`}>
          <input type="hidden" name="lang" value={lang} />
          <input type="hidden" name="s" value={submission} />
          <div className="field" data-invalid={error ? true : undefined}>
            <label htmlFor="code">{t.code}</label>
            <input
              id="code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              maxLength={7}
              required
              {...(error ? { 'aria-invalid': true, 'aria-describedby': 'form-error' } : {})}
            />
          </div>
          <div className="form-actions">
            <Button type="submit" variant="primary">
              {t.verify}
            </Button>
            <DownloadButton variant="ghost" href={`/sign/forms/${slug}?lang=${lang}`}>
              {t.restart}
            </DownloadButton>
          </div>
        </form>
      </section>
    </FormShell>
  );
}
