import { SIGN_TEXTS } from './texts';
import '../../pay/pay.css';

/** A path under /sign that matches nothing: the page cannot know the signer's language, so it says it in both. */
export default function SignLinkNotFound() {
  return (
    <main className="pay-page">
      {(['fr', 'en'] as const).map((lang) => (
        <section key={lang} className="card" lang={lang}>
          {lang === 'fr' ? <h1>{SIGN_TEXTS.fr.end.notFound.title}</h1> : <h2>{SIGN_TEXTS.en.end.notFound.title}</h2>}
          <p>{SIGN_TEXTS[lang].end.notFound.text}</p>
        </section>
      ))}
    </main>
  );
}
