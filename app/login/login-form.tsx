'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { Field, FormErrors, Input, SubmitButton } from '@/components/form';

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn('credentials', {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      redirect: false,
    });
    if (result?.ok && !result.error) {
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setError('E-mail ou mot de passe incorrect.');
  }

  return (
    <form className="form" onSubmit={onSubmit}>
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
