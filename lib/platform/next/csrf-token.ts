import { createHash, timingSafeEqual } from 'node:crypto';
import { authOptions } from './session';

/**
 * next-auth's CSRF cookie, for the login form that posts straight to next-auth (`/api/auth/callback/credentials`)
 * when JavaScript does not run: the form must carry the token of the cookie the browser will send. The name is
 * next-auth's: `__Host-` prefixed when its cookies are secure (an https NEXTAUTH_URL, or `useSecureCookies`).
 */
export function csrfCookieName(): string {
  const options = authOptions();
  const named = options.cookies?.csrfToken?.name;
  if (named) return named;
  const secure = options.useSecureCookies ?? (process.env.NEXTAUTH_URL ?? '').startsWith('https://');
  return `${secure ? '__Host-' : ''}next-auth.csrf-token`;
}

/**
 * The token of next-auth's CSRF cookie (`<token>|sha256(<token><secret>)`), when the cookie is one next-auth made with
 * this secret: the check next-auth itself makes before it trusts the cookie. Null otherwise (no cookie yet, another
 * secret), and next-auth then sets a new one on its next answer.
 */
export function csrfTokenFromCookie(value: string | null | undefined): string | null {
  const [token, hash, ...rest] = (value ?? '').split('|');
  if (!token || !hash || rest.length) return null;
  const expected = createHash('sha256').update(`${token}${authOptions().secret}`).digest('hex');
  return hash.length === expected.length && timingSafeEqual(Buffer.from(hash), Buffer.from(expected)) ? token : null;
}
