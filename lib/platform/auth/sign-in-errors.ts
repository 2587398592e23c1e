/**
 * The codes a refused sign-in carries to the login page. next-auth passes the message of an error thrown by
 * `authorize` as `?error=` (and as `error` to `signIn(…, {redirect: false})`), so a throttle refusal is written
 * `<Kind>:<seconds>` and the page turns a known code into its own words (app/login/messages.ts): it never shows the
 * raw text. Plain module: the login form imports it in the browser.
 */
export const THROTTLE_REFUSALS = ['AccountLocked', 'AddressBlocked', 'TooManyAttempts'] as const;
export type ThrottleRefusal = (typeof THROTTLE_REFUSALS)[number];

/** Every code the login page words: next-auth's wrong credentials, the throttle's refusals, the page's own checks. */
export type SignInErrorKind = 'CredentialsSignin' | ThrottleRefusal | 'CredentialsInUrl' | 'CookiesRequired' | 'Other';

export function throttleErrorCode(kind: ThrottleRefusal, retryAfterSeconds: number): string {
  return `${kind}:${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

/** `?error=` → what happened and, for a throttle refusal, the seconds to wait; null when there is no error. */
export function parseSignInError(raw: string | null | undefined): { kind: SignInErrorKind; seconds: number | null } | null {
  if (!raw) return null;
  const throttled = /^(AccountLocked|AddressBlocked|TooManyAttempts):(\d{1,7})$/.exec(raw);
  if (throttled) return { kind: throttled[1] as ThrottleRefusal, seconds: Number(throttled[2]) };
  if (raw === 'CredentialsSignin' || raw === 'CredentialsInUrl' || raw === 'CookiesRequired') return { kind: raw, seconds: null };
  return { kind: 'Other', seconds: null };
}
