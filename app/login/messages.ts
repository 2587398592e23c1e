import { parseSignInError } from '@/lib/platform/auth/client';

/** "45 s", "15 min": what a refusal asks to wait, rounded up. */
function wait(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/**
 * The login page's words for the `?error=` next-auth sends back (or `signIn()` answers): only known codes are worded,
 * anything else is a generic failure, and the raw text is never shown.
 */
export function signInErrorMessage(raw: string | null | undefined): string | null {
  const error = parseSignInError(raw);
  if (!error) return null;
  const seconds = error.seconds ?? 1;
  switch (error.kind) {
    case 'CredentialsSignin':
      return 'E-mail ou mot de passe incorrect.';
    case 'TooManyAttempts':
      return `Trop de tentatives de connexion. Réessayez dans ${wait(seconds)}.`;
    case 'AccountLocked':
      return `Compte temporairement verrouillé après trop de tentatives de connexion : réessayez dans ${wait(seconds)}. Même le bon mot de passe est refusé d’ici là.`;
    case 'AddressBlocked':
      return `Trop de tentatives de connexion depuis votre adresse réseau : réessayez dans ${wait(seconds)}.`;
    case 'CredentialsInUrl':
      return 'Identifiants ignorés : ils figuraient dans l’adresse de la page, que le navigateur garde dans son historique. Saisissez-les dans le formulaire.';
    case 'CookiesRequired':
      return 'Votre navigateur refuse les cookies : ils sont nécessaires pour vous connecter.';
    default:
      return 'La connexion a échoué. Réessayez.';
  }
}
