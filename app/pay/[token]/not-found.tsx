import { PAY_TEXTS } from '@/lib/domain/payments';
import '../pay.css';

/** An unknown or expired link: the page cannot know the payer's language from the document, so it says it in both. */
export default function PayLinkNotFound() {
  return (
    <main className="pay-page">
      {(['fr', 'en'] as const).map((lang) => (
        <section key={lang} className="card" lang={lang}>
          {lang === 'fr' ? <h1>{PAY_TEXTS.fr.notFoundTitle}</h1> : <h2>{PAY_TEXTS.en.notFoundTitle}</h2>}
          <p>{PAY_TEXTS[lang].notFoundText}</p>
        </section>
      ))}
    </main>
  );
}
