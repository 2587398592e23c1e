import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { LoginForm } from './login-form';
import { loginPageState } from './state';

export const metadata: Metadata = { title: 'Connexion' };

// Reads the request's cookies: never prerendered.
export const dynamic = 'force-dynamic';

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const jar = await cookies();
  const state = loginPageState(await searchParams, (name) => jar.get(name)?.value);
  // Credentials in the URL are never used (and the URL is replaced); no CSRF cookie yet: next-auth sets it first.
  if ('redirect' in state) redirect(state.redirect);
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <div className="brand">Paraphe</div>
        <p className="muted">Connectez-vous à votre espace.</p>
        <LoginForm csrfToken={state.csrfToken} callbackUrl={state.callbackUrl} initialError={state.error} />
      </div>
    </div>
  );
}
