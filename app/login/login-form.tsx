'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Field, FormErrors, Input, SubmitButton } from '@/components/ui';
import { signInErrorMessage } from './messages';

/**
 * The form posts to next-auth itself (method POST, its CSRF token, the callback URL): without JavaScript next-auth
 * signs in and redirects to the callback URL, or back to /login?error=… on a refusal. With JavaScript the same form
 * signs in through `signIn()` without leaving the page. Either way the password travels in a POST body only.
 */
export function LoginForm({ csrfToken, callbackUrl, initialError }: { csrfToken: string; callbackUrl: string | null; initialError: string | null }) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const target = callbackUrl ?? '/';
    const result = await signIn('credentials', {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      // Named, or signIn() takes this page's URL, whose own ?error= it would then read back as the answer's.
      callbackUrl: target,
      redirect: false,
    });
    if (result?.ok && !result.error) {
      window.location.assign(target);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? 'Other'));
  }

  return (
    <form className="form" method="post" action="/api/auth/callback/credentials" onSubmit={onSubmit}>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      {callbackUrl && <input type="hidden" name="callbackUrl" value={callbackUrl} />}
      <Field id="email" label="E-mail">
        <Input name="email" type="email" autoComplete="username" required />
      </Field>
      <Field id="password" label="Mot de passe">
        <Input name="password" type="password" autoComplete="current-password" required />
      </Field>
      <FormErrors state={{ error: error ?? undefined }} />
      <SubmitButton pending={pending} pendingLabel="Connexion…">
        Se connecter
      </SubmitButton>
    </form>
  );
}
