import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db/client';
import { formPageStatus, signerPageStatus } from '@/lib/domain/signature';
import { refuseCredentialsInQuery } from '@/lib/platform/auth/secret-query';
import { appBaseUrl } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import {
  checkoutOrigins,
  isPaymentPage,
  isPaymentSettingsPage,
  isTokenPage,
  newNonce,
  onboardingOrigins,
  securityHeaders,
  servedOverHttps,
  TOKEN_PAGE_HEADERS,
} from '@/lib/platform/http/security-headers';

/**
 * Every response's security headers (lib/platform/http/security-headers.ts), with a fresh CSP nonce. Next.js reads the
 * policy from the request to put the nonce on the scripts it renders; a route handler that writes its own HTML
 * (the API reference) reads it from `x-nonce`.
 */
export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const tokenPage = isTokenPage(request.nextUrl.pathname);
  const headers = securityHeaders({
    nonce,
    https: servedOverHttps(request.url, request.headers.get('x-forwarded-proto'), appBaseUrl()),
    development: process.env.NODE_ENV === 'development',
    formActions: isPaymentPage(request.nextUrl.pathname)
      ? checkoutOrigins(process.env.STRIPE_API_BASE)
      : isPaymentSettingsPage(request.nextUrl.pathname)
        ? onboardingOrigins(process.env.STRIPE_API_BASE)
        : [],
  });
  if (tokenPage) Object.assign(headers, TOKEN_PAGE_HEADERS);
  const refused = credentialsInQuery(request);
  if (refused) {
    for (const [name, value] of Object.entries(headers)) refused.headers.set(name, value);
    return refused;
  }
  const forwarded = new Headers(request.headers);
  forwarded.set('x-nonce', nonce);
  forwarded.set('Content-Security-Policy', headers['Content-Security-Policy'] as string);
  // Only this proxy says which unavailable page to write (a client's own header is dropped).
  forwarded.delete(UNAVAILABLE_HEADER);
  const unavailable = await unavailableSignPage(request);
  if (unavailable) forwarded.set(UNAVAILABLE_HEADER, unavailable.searchParams.toString());
  const response = unavailable ? NextResponse.rewrite(unavailable, { request: { headers: forwarded } }) : NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * A password, key or token in the URL of next-auth or the API is refused before anything runs, whichever route would
 * answer (the OpenAPI document, an unknown path, a 405 included); route() checks again. The login page sends such a
 * URL back to itself, without the query, with a message (app/login/state.ts).
 */
function credentialsInQuery(request: NextRequest): NextResponse | null {
  if (!/^\/(?:api\/auth|v1)(?:\/|$)/.test(request.nextUrl.pathname)) return null;
  try {
    refuseCredentialsInQuery(request.url);
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return NextResponse.json(err.toBody(), { status: err.status, headers: { 'Cache-Control': 'no-store' } });
  }
}

/**
 * A signing link or form that does not work answers with its status, as `/api/sign/<token>` does: an App Router page
 * cannot answer 410, so `GET /sign/<token>` of a dead link (410), and `GET /sign/forms/<slug>[/verify]` of an unknown
 * (404) or deleted (410) form, are rewritten to app/sign/unavailable, which writes the same page with that status. An
 * unknown signer link stays with its page's notFound() (404, app/sign/[token]/not-found.tsx). Null: the page answers.
 */
/**
 * The page, status and language of the unavailable page, as a query string, in a request header: a rewrite's own query
 * does not reach the route in a production build (only the original request's does), its headers do.
 */
const UNAVAILABLE_HEADER = 'x-paraphe-sign-unavailable';

async function unavailableSignPage(request: NextRequest): Promise<URL | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const { pathname } = request.nextUrl;
  const form = /^\/sign\/forms\/([^/]+)(?:\/verify)?\/?$/.exec(pathname);
  const link = form ? null : /^\/sign\/([^/]+)\/?$/.exec(pathname);
  if (!form && (!link || link[1] === 'forms' || link[1] === 'unavailable')) return null;
  let status: number;
  let outcome: string | null = null;
  try {
    const db = await getDb();
    if (form) status = await formPageStatus(db, decodeURIComponent(form[1]!));
    else {
      const answer = await signerPageStatus(db, decodeURIComponent(link![1]!));
      status = answer.status;
      // Why the link no longer works, for the page to say it (issue 35): declined by this signer or another one.
      if (answer.outcome) outcome = answer.outcome.kind === 'declined' && !answer.outcome.by_you ? 'declined_other' : answer.outcome.kind;
    }
  } catch {
    return null; // the page looks again, and says what went wrong
  }
  if (status === 200 || (link && status === 404)) return null;
  const url = new URL('/sign/unavailable', request.url);
  url.searchParams.set('page', form ? 'form' : 'link');
  url.searchParams.set('status', String(status));
  if (outcome) url.searchParams.set('outcome', outcome);
  const lang = request.nextUrl.searchParams.get('lang');
  if (lang) url.searchParams.set('lang', lang);
  return url;
}

export const config = {
  // Built assets are immutable files of our own: their headers come from Next.js.
  matcher: [{ source: '/((?!_next/static|_next/image|icon.svg).*)' }],
};
