import { csrfCookieName, csrfTokenFromCookie } from '@/lib/platform/next';
import { secretQueryParam } from '@/lib/platform/auth';
import { appBaseUrl } from '@/lib/platform/config';
import { signInErrorMessage } from './messages';

type Params = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** What the login page renders, or where it sends the browser instead. */
export type LoginPageState =
  | { redirect: string }
  | {
      /** next-auth's CSRF token, for the form that posts without JavaScript. */
      csrfToken: string;
      /** Where to go once signed in, when the URL says (a path of this site); next-auth's own cookie otherwise. */
      callbackUrl: string | null;
      error: string | null;
    };

/** A same-site path from a callbackUrl: a path, or an absolute URL of this site (next-auth writes those). Never elsewhere. */
export function sameSitePath(raw: string | undefined): string | null {
  if (!raw) return null;
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.startsWith('/\\')) return raw;
  try {
    const url = new URL(raw);
    return url.origin === new URL(appBaseUrl()).origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/** Marks the return from next-auth's sign-in entry; the page's own error, if any, rides along after a dot. */
const COOKIE_CHECK = 'CookiesRequired';

/**
 * The login page's decision, from its query and next-auth's CSRF cookie:
 * - credentials in the query string (a form submitted as GET, a hand-made link) are never used: the browser is sent
 *   to /login without them, with a message;
 * - without next-auth's CSRF cookie the form could not post without JavaScript: the browser goes once through
 *   next-auth's sign-in entry, which sets the cookie and sends it back here with the `error` it was given
 *   (`CookiesRequired[.<the page's error>]`), so that the page's message survives the trip and a browser that refuses
 *   cookies gets a message instead of a loop.
 */
export function loginPageState(params: Params, cookie: (name: string) => string | undefined): LoginPageState {
  if (secretQueryParam(params)) return { redirect: '/login?error=CredentialsInUrl' };
  const callbackUrl = sameSitePath(first(params.callbackUrl));
  const error = first(params.error) || null;
  const returned = error === COOKIE_CHECK || error?.startsWith(`${COOKIE_CHECK}.`);
  const csrfToken = csrfTokenFromCookie(cookie(csrfCookieName()));
  if (!csrfToken) {
    if (returned) return { csrfToken: '', callbackUrl, error: signInErrorMessage(COOKIE_CHECK) };
    const query = new URLSearchParams({ ...(callbackUrl ? { callbackUrl } : {}), error: error ? `${COOKIE_CHECK}.${error}` : COOKIE_CHECK });
    return { redirect: `/api/auth/signin?${query}` };
  }
  const shown = returned ? error!.slice(COOKIE_CHECK.length + 1) : error;
  return { csrfToken, callbackUrl, error: signInErrorMessage(shown) };
}
