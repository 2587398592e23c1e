/*
 * The security headers of every response (proxy.ts sets them; docs/security.md explains each). Pure: the proxy
 * passes what it knows of the request.
 */

export interface SecurityContext {
  /** This response's script nonce: fresh for every request, unguessable. */
  nonce: string;
  /** Served over https (the request's own scheme, or a proxy's X-Forwarded-Proto, or an https APP_BASE_URL). */
  https: boolean;
  /** `next dev`: React's dev tooling evaluates code. */
  development: boolean;
  /** Origins a form may post (or be redirected) to besides ours: the payment page's hosted checkout. */
  formActions?: string[];
}

/**
 * The Content-Security-Policy. Scripts run only from a tag carrying the nonce (Next.js puts it on its own tags, the
 * API reference's page on its two) and what they load ('strict-dynamic'); everything else comes from our origin
 * alone: nothing from a vendor's server, no plugin, no <base> rewrite, forms posting only to us, framing by our own
 * pages only (the document page shows its PDF in a frame). Styles allow inline attributes (`style={…}` in React),
 * which cannot carry a nonce; a style cannot run code.
 */
export function contentSecurityPolicy({ nonce, https, development, formActions = [] }: SecurityContext): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "frame-ancestors 'self'",
    ["form-action 'self'", ...formActions].join(' '),
    "base-uri 'self'",
    "object-src 'none'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

export function securityHeaders(context: SecurityContext): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(context),
    // For browsers that predate frame-ancestors.
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Content-Type-Options': 'nosniff',
    // Public pages carry their token in the URL (/pay/<token>, /sign/<token>): it never leaves in a Referer.
    'Referrer-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), bluetooth=(), midi=(), browsing-topics=(), interest-cohort=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(context.https ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

/** 128 random bits, base64: what a CSP nonce needs to be unguessable. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

/** Whether the request reached us over https, directly or through a proxy that says so. */
export function servedOverHttps(url: string, forwardedProto: string | null, appBaseUrl: string): boolean {
  if (new URL(url).protocol === 'https:') return true;
  if (forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https') return true;
  return appBaseUrl.startsWith('https://');
}

/**
 * The public pages reached by a secret link (/pay/<token>, its checkout and PDF; /sign/<token> and the signer's API
 * /api/sign/<token>/…): the token never leaves in a Referer (not even to our own pages), no search engine keeps them,
 * no cache stores them.
 */
export const TOKEN_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
};

export const isTokenPage = (pathname: string) => /^\/(?:pay|sign|api\/sign|invitation)\/[^/]+(?:\/|$)/.test(pathname);

/** The payer's pages: their forms post to the provider's hosted checkout. */
export const isPaymentPage = (pathname: string) => /^\/pay\/[^/]+(?:\/|$)/.test(pathname);

/** Settings → Paiements: its "Connecter" form answers 303 to the provider's onboarding (an Account Link). */
export const isPaymentSettingsPage = (pathname: string) => /^\/settings\/payments(?:\/|$)/.test(pathname);

/** Where Settings → Paiements' forms may lead without JavaScript: Stripe's onboarding, or the fake's at STRIPE_API_BASE. */
export function onboardingOrigins(apiBase: string | undefined): string[] {
  if (!apiBase?.trim()) return ['https://connect.stripe.com'];
  try {
    return [new URL(apiBase.trim()).origin];
  } catch {
    return ['https://connect.stripe.com'];
  }
}

/**
 * Where the payment page's forms may lead: Chrome applies form-action to the redirect that follows a post, and
 * /pay/<token>/checkout answers 303 to the provider's hosted checkout (Stripe's, or the fake's at STRIPE_API_BASE).
 */
export function checkoutOrigins(apiBase: string | undefined): string[] {
  if (!apiBase?.trim()) return ['https://checkout.stripe.com'];
  try {
    return [new URL(apiBase.trim()).origin];
  } catch {
    return ['https://checkout.stripe.com'];
  }
}
