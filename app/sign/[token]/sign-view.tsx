'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { todayParis } from '@/lib/platform/dates/client';
import type { Language } from '@/lib/platform/format';
import { apiBase, type CodeSent, isSignatureField, type SignField, SignError, type SignOutcome, type SignState, signApi, uploadedName } from './api';
import { DoneDetails, doneTitle, type End, endOfOutcome } from './done';
import { PdfPages } from './pdf-pages';
import { ConsentStep, DeclineStep, ErrorLine, FieldsStep, UploadsStep, VerifyStep } from './sign-steps';
import { SignaturePad, type SignatureInput } from './signature-pad';
import { SIGN_TEXTS, type SignTexts } from './texts';
import { Button, DownloadButton } from '@/components/ui';

export type { End } from './done';
type Section = 'consent' | 'verify' | 'sign' | 'decline' | string;


/** The value a field proposes before the signer types anything: their name, e-mail, today. */
function proposed(field: SignField, state: SignState): string {
  if (field.value != null) return field.value;
  if (field.type === 'name') return state.signer.full_name ?? '';
  if (field.type === 'email') return state.signer.email;
  // Today in Paris, as a date input holds it.
  if (field.type === 'date') return todayParis();
  return '';
}

/** Where a signer whose state says so ends up; null while there is something to do. */
function endOf(state: SignState): End | null {
  if (state.outcome) return endOfOutcome(state.outcome);
  if (state.signer.status === 'signed') return 'signed';
  if (state.signer.status === 'declined') return 'declined';
  if (state.signer.status === 'waiting' && !state.signer.your_turn) return 'waiting';
  return null;
}

/** A required field the signer has yet to fill (the API fills empty name, e-mail and date fields itself at sign). */
const missing = (field: SignField, saved: string | undefined) =>
  field.required && (field.type === 'text' || field.type === 'initials' || field.type === 'checkbox') && !(field.type === 'checkbox' ? saved === 'true' : saved);

/**
 * /sign/<token> in the browser: loads the signer's state, then walks them through consent, the one-time code (when
 * their verification method asks for one), the fields and requested documents, and the signature; or the decline.
 * Every step is a call to /api/sign/<token>/…, whose answer is the new state; its refusals are shown by their code.
 */
export function SignView({
  token,
  initialLang,
  initialEnd = null,
  initialOutcome = null,
}: {
  token: string;
  initialLang: Language;
  initialEnd?: End | null;
  /** A link that no longer signs: what happened, read by the server page (the done page works without a script). */
  initialOutcome?: SignOutcome | null;
}) {
  const [lang, setLang] = useState<Language>(initialLang);
  const t = SIGN_TEXTS[lang];
  const [state, setState] = useState<SignState | null>(null);
  const [end, setEnd] = useState<End | null>(initialEnd);
  const [outcome, setOutcome] = useState<SignOutcome | null>(initialOutcome);
  const [busy, setBusy] = useState<Section | null>(null);
  const [errors, setErrors] = useState<Record<Section, string>>({});
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [signature, setSignature] = useState<SignatureInput | null>(null);
  const saved = useRef<Record<string, string>>({});

  const message = useCallback((err: unknown) => errorText(err, SIGN_TEXTS[lang]), [lang]);

  const adopt = useCallback((next: SignState) => {
    setState(next);
    setEnd(endOf(next));
    setOutcome(next.outcome ?? null);
    for (const f of next.fields) if (f.value != null) saved.current[f.id] = f.value;
    setValues((prev) => Object.fromEntries(next.fields.map((f) => [f.id, prev[f.id] ?? proposed(f, next)])));
  }, []);

  /** A refusal that ends the page (dead or unknown link, not their turn), or an error shown under `section`. */
  const fail = useCallback(
    (section: Section, err: unknown) => {
      if (err instanceof SignError) {
        if (err.status === 410) return setEnd('expired');
        // Only the first read can meet an unknown link; a 404 later is about what was asked (a field).
        if (err.status === 404 && section === 'load') return setEnd('notFound');
        if (err.code === 'not_your_turn' && !state) return setEnd('waiting');
        // Locked, or verified meanwhile (another tab): the state says so.
        if (err.code === 'signer_locked' || err.code === 'already_verified') signApi.state(token, lang).then(adopt, () => undefined);
      }
      setErrors((prev) => ({ ...prev, [section]: message(err) }));
    },
    [message, state, token, lang, adopt],
  );

  const run = useCallback(
    async (section: Section, action: () => Promise<SignState | unknown>, then?: (result: unknown) => void) => {
      setBusy(section);
      setErrors((prev) => ({ ...prev, [section]: '' }));
      try {
        const result = await action();
        if (result && typeof result === 'object' && 'signer' in result) adopt(result as SignState);
        then?.(result);
      } catch (err) {
        fail(section, err);
      } finally {
        setBusy(null);
      }
    },
    [adopt, fail],
  );

  // Once: later answers carry the state; the language switch needs no new one (both consent texts come with it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per token
  useEffect(() => {
    if (!initialEnd) signApi.state(token, initialLang).then(adopt, (err) => fail('load', err));
  }, [token]);

  const switchLanguage = (e: React.MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const next = t.switchTo.href as Language;
    setLang(next);
    setErrors({});
    const url = new URL(window.location.href);
    url.searchParams.set('lang', next);
    window.history.replaceState(null, '', url);
  };

  const header = (
    <nav className="pay-lang" aria-label={t.languageNav}>
      <a href={`?lang=${t.switchTo.href}`} hrefLang={t.switchTo.href} lang={t.switchTo.href} onClick={switchLanguage}>
        {t.switchTo.label}
      </a>
    </nav>
  );

  if (end) return <EndPage end={end} outcome={outcome} token={token} t={t} lang={lang} header={header} />;
  if (!state) {
    return (
      <main className="pay-page sign-page-main" lang={t.htmlLang} aria-busy="true">
        {header}
        <h1 className="sr-only">{t.pageTitle}</h1>
        {errors.load ? <ErrorLine message={errors.load} /> : <p role="status">{t.loading}</p>}
      </main>
    );
  }

  const mine = state.fields.filter((f) => !f.signer_id || f.signer_id === state.signer.id);
  const consented = Boolean(state.signer.consent_given_at);
  const needsCode = state.signer.verification_method !== 'none';
  const verified = !needsCode || state.signer.verified;
  const ready = consented && verified;
  const completed = !mine.some((f) => missing(f, saved.current[f.id])) && state.requested_documents.every((d) => !d.required || uploadedName(d));
  const steps = [
    { key: 'read', done: consented },
    ...(needsCode ? [{ key: 'verify', done: verified }] : []),
    ...(mine.some((f) => !isSignatureField(f)) || state.requested_documents.length ? [{ key: 'complete', done: ready && completed }] : []),
    { key: 'sign', done: false },
  ] as Array<{ key: keyof SignTexts['steps']; done: boolean }>;
  const current = Math.max(0, steps.findIndex((s) => !s.done));

  const saveField = (id: string, value: string) => {
    if (saved.current[id] === value || !ready) return;
    void run(id, () => signApi.fillField(token, id, value));
  };
  const pick = (id: string) => {
    const target = document.getElementById(`sign-field-${id}`);
    target?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    target?.focus({ preventScroll: true });
  };
  const sign = () => {
    if (!signature) return setErrors((prev) => ({ ...prev, sign: t.signatureMissing }));
    return run('sign', () => signApi.sign(token, signature));
  };

  return (
    <main className="pay-page sign-page-main" lang={t.htmlLang} aria-busy={busy != null}>
      {header}
      <section className="card" aria-labelledby="sign-title">
        <p className="muted sign-invited">{state.envelope.sender_name ? t.invitedBy(state.envelope.sender_name) : t.invited}</p>
        <h1 id="sign-title">{state.envelope.subject || t.pageTitle}</h1>
        {state.envelope.message && <p className="prewrap">{state.envelope.message}</p>}
        <ol className="sign-steps" aria-label={t.stepsLabel}>
          {steps.map((s, i) => (
            <li key={s.key} aria-current={i === current ? 'step' : undefined} data-done={s.done}>
              <span className="sr-only">{t.stepOf(i + 1, steps.length)} : </span>
              {t.steps[s.key]}
            </li>
          ))}
        </ol>
        <div className="progress" role="progressbar" aria-label={t.stepsLabel} aria-valuemin={0} aria-valuemax={steps.length} aria-valuenow={current}>
          <span className="progress-bar" style={{ width: `${(current / steps.length) * 100}%` }} />
        </div>
        {busy && (
          <p className="muted" role="status">
            {t.working}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="sign-document">
        <h2 id="sign-document">{t.documentHeading}</h2>
        <p>
          <DownloadButton small href={`${apiBase(token)}/document`} download>
            {t.download}
          </DownloadButton>
        </p>
        <PdfPages url={`${apiBase(token)}/document`} pageCount={state.envelope.page_count ?? 0} fields={mine} values={values} t={t} onPick={pick} />
      </section>

      <ConsentStep state={state} text={state.consent_texts?.[lang] ?? state.consent_text ?? ''} t={t} busy={busy != null} error={errors.consent} onAccept={() => run('consent', () => signApi.consent(token))} />
      <VerifyStep
        state={state}
        t={t}
        busy={busy != null}
        error={errors.verify}
        sentTo={codeSentTo}
        enabled={consented}
        onSend={() => run('verify', () => signApi.sendCode(token), (sent) => setCodeSentTo((sent as CodeSent).code.sent_to))}
        onVerify={(code) => run('verify', () => signApi.verifyCode(token, code))}
      />
      <FieldsStep
        fields={mine}
        values={values}
        t={t}
        enabled={ready}
        busy={busy != null}
        errors={errors}
        onChange={(id, value) => setValues((prev) => ({ ...prev, [id]: value }))}
        onSave={saveField}
      />
      <UploadsStep docs={state.requested_documents} t={t} enabled={ready} busy={busy != null} errors={errors} onUpload={(id, file) => run(id, () => signApi.upload(token, id, file))} />

      <section className="card" aria-labelledby="sign-signature">
        <h2 id="sign-signature">{t.signatureHeading}</h2>
        <SignaturePad t={t} defaultName={state.signer.full_name ?? ''} onChange={setSignature} disabled={!ready} />
        <div className="sign-actions">
          <Button variant="primary" disabled={!ready || busy != null} onClick={sign}>
            {t.signButton}
          </Button>
        </div>
        <ErrorLine message={errors.sign} />
      </section>

      <DeclineStep t={t} busy={busy != null} error={errors.decline} onDecline={(reason) => run('decline', () => signApi.decline(token, reason))} />
    </main>
  );
}

function errorText(err: unknown, t: SignTexts): string {
  if (!(err instanceof SignError)) return t.errors.unknown ?? '';
  const known = t.errors[err.code];
  if (known) return err.field && err.code === 'validation_error' ? `${known} (${err.field})` : known;
  // A code this page does not know: the API's own words in English, a generic sentence in French.
  return t.htmlLang === 'en' && err.message ? err.message : (t.errors.unknown ?? '');
}

function EndPage({ end, outcome, token, t, lang, header }: { end: End; outcome: SignOutcome | null; token: string; t: SignTexts; lang: Language; header: React.ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The page changed under the signer: the focus goes to what it now says.
  useEffect(() => heading.current?.focus(), []);
  const title = doneTitle(end, outcome, t);
  const { text } = t.end[end];
  const tone = end === 'signed' ? ' notice-success' : end === 'declined' || end === 'waiting' ? '' : ' notice-warning';
  return (
    <main className="pay-page sign-page-main" lang={lang}>
      {header}
      <section className={`card sign-end${tone}`} aria-labelledby="sign-end-title">
        <h1 id="sign-end-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <p>{text}</p>
        {end === 'signed' && outcome && <DoneDetails outcome={outcome} t={t} lang={lang} token={token} />}
      </section>
    </main>
  );
}
