import { FORM_TEXTS, type FormLang } from './texts';

/** The frame of the form's pages: the language switch (a plain link, no script) and one narrow column. */
export function FormShell({ lang, switchHref, children }: { lang: FormLang; switchHref: string; children: React.ReactNode }) {
  const t = FORM_TEXTS[lang];
  return (
    <main className="pay-page" lang={t.htmlLang}>
      <nav className="pay-lang" aria-label={t.languageNav}>
        <a href={switchHref} hrefLang={t.switchTo.lang} lang={t.switchTo.lang}>
          {t.switchTo.label}
        </a>
      </nav>
      {children}
    </main>
  );
}

/** A closed or unknown form: said plainly, nothing to fill. */
export function FormClosed({ lang, title, text }: { lang: FormLang; title: string; text: string }) {
  return (
    <main className="pay-page" lang={FORM_TEXTS[lang].htmlLang}>
      <section className="card">
        <h1>{title}</h1>
        <p>{text}</p>
      </section>
    </main>
  );
}

export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
