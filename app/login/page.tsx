import type { Metadata } from 'next';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Connexion' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  // Only same-site paths: never an open redirect.
  const target = callbackUrl?.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/';
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <div className="brand">Paraphe</div>
        <p className="muted">Connectez-vous à votre espace.</p>
        <LoginForm callbackUrl={target} initialError={error ? 'E-mail ou mot de passe incorrect.' : null} />
      </div>
    </div>
  );
}
