'use client';

import { useEffect, useState } from 'react';
// The same function as POST /v1/signature/email-suggestion, run in the browser: it is pure (a list of domains and a
// distance), so the public form needs no session nor server round trip. Imported by file: the module's index is server code.
import { suggestEmail } from '@/lib/domain/signature/client';
import { Button } from '@/components/ui';

/*
 * « Vouliez-vous dire … ? » under a signer's e-mail input (back-office envelope editor, bulk rows, public form).
 * The suggestion is the API's (lib/domain/signature/email-suggestion.ts), computed once typing pauses.
 */

const TEXTS = {
  fr: { question: 'Vouliez-vous dire', use: 'Corriger' },
  en: { question: 'Did you mean', use: 'Use it' },
} as const;

/** The suggested address for `email` (null while typing, for a correct address, or for no address yet). */
export function useEmailSuggestion(email: string, delayMs = 400): string | null {
  const [suggestion, setSuggestion] = useState<{ for: string; value: string | null } | null>(null);
  useEffect(() => {
    const typed = email.trim();
    if (!typed.includes('@')) return;
    const timer = setTimeout(() => setSuggestion({ for: typed, value: suggestEmail(typed.slice(0, 320)).suggestion }), delayMs);
    return () => clearTimeout(timer);
  }, [email, delayMs]);
  return suggestion && suggestion.for === email.trim() ? suggestion.value : null;
}

/** For a controlled input: shows the suggestion; `onAccept` receives the corrected address. */
export function EmailSuggestionHint({ email, onAccept, lang = 'fr', id }: { email: string; onAccept: (corrected: string) => void; lang?: 'fr' | 'en'; id?: string }) {
  const suggestion = useEmailSuggestion(email);
  const t = TEXTS[lang];
  return (
    <p id={id} className="field-hint" role="status" aria-live="polite">
      {suggestion && (
        <>
          {t.question} <strong>{suggestion}</strong> ?{' '}
          <Button small onClick={() => onAccept(suggestion)}>
            {t.use}
          </Button>
        </>
      )}
    </p>
  );
}

/**
 * For an uncontrolled input (a plain form field, the public form): follows the input with this id and, on
 * « Corriger », writes the corrected address into it.
 */
export function EmailSuggestionFor({ inputId, lang = 'fr' }: { inputId: string; lang?: 'fr' | 'en' }) {
  const [email, setEmail] = useState('');
  useEffect(() => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    if (!input) return;
    const read = () => setEmail(input.value);
    read();
    input.addEventListener('input', read);
    return () => input.removeEventListener('input', read);
  }, [inputId]);
  const accept = (corrected: string) => {
    const input = document.getElementById(inputId) as HTMLInputElement | null;
    if (!input) return;
    input.value = corrected;
    setEmail(corrected);
    input.focus();
  };
  return <EmailSuggestionHint email={email} onAccept={accept} lang={lang} id={`${inputId}-suggestion`} />;
}
