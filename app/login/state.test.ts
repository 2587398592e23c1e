import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csrfCookieName } from '@/lib/platform/next';
import { authSecret } from '@/lib/platform/config';
import { signInErrorMessage } from './messages';
import { loginPageState, sameSitePath } from './state';

const token = 'a'.repeat(64);
const validCookie = `${token}|${createHash('sha256').update(`${token}${authSecret()}`).digest('hex')}`;
const jar =
  (value: string | undefined) =>
  (name: string): string | undefined =>
    name === csrfCookieName() ? value : undefined;

describe('login page', () => {
  it('never uses credentials in the query string: back to /login without them, with a message', () => {
    for (const params of [{ email: 'a@b.fr', password: 'secret' }, { password: 'x' }, { pwd: 'x' }, { api_key: 'x' }, { callbackUrl: '/', token: 'x' }]) {
      expect(loginPageState(params, jar(validCookie))).toEqual({ redirect: '/login?error=CredentialsInUrl' });
    }
    expect(loginPageState({ error: 'CredentialsInUrl' }, jar(validCookie))).toMatchObject({ error: expect.stringContaining('Identifiants ignorés') });
  });

  it('renders the form with next-auth’s CSRF token and a same-site callback', () => {
    expect(loginPageState({ callbackUrl: '/documents?status=draft' }, jar(validCookie))).toEqual({ csrfToken: token, callbackUrl: '/documents?status=draft', error: null });
    expect(loginPageState({ callbackUrl: 'https://evil.example/steal' }, jar(validCookie))).toEqual({ csrfToken: token, callbackUrl: null, error: null });
  });

  it('goes once through next-auth to get the CSRF cookie, and says so when the browser refuses cookies', () => {
    for (const cookie of [undefined, `${token}|forged`, 'garbage']) {
      expect(loginPageState({ callbackUrl: '/contacts' }, jar(cookie))).toEqual({ redirect: '/api/auth/signin?callbackUrl=%2Fcontacts&error=CookiesRequired' });
    }
    expect(loginPageState({}, jar(undefined))).toEqual({ redirect: '/api/auth/signin?error=CookiesRequired' });
    expect(loginPageState({ error: 'CookiesRequired' }, jar(undefined))).toEqual({ csrfToken: '', callbackUrl: null, error: expect.stringContaining('refuse les cookies') });
    // Back with the cookie: no message.
    expect(loginPageState({ callbackUrl: 'http://localhost:3000/contacts', error: 'CookiesRequired' }, jar(validCookie))).toEqual({ csrfToken: token, callbackUrl: '/contacts', error: null });
    // The page's own message makes the trip.
    expect(loginPageState({ error: 'CredentialsInUrl' }, jar(undefined))).toEqual({ redirect: '/api/auth/signin?error=CookiesRequired.CredentialsInUrl' });
    expect(loginPageState({ error: 'CookiesRequired.CredentialsInUrl' }, jar(validCookie))).toMatchObject({ error: expect.stringContaining('Identifiants ignorés') });
    expect(loginPageState({ error: 'CookiesRequired.CredentialsInUrl' }, jar(undefined))).toMatchObject({ error: expect.stringContaining('refuse les cookies') });
  });

  it('words the codes next-auth sends back, and only those', () => {
    expect(signInErrorMessage('CredentialsSignin')).toBe('E-mail ou mot de passe incorrect.');
    expect(signInErrorMessage('TooManyAttempts:4')).toBe('Trop de tentatives de connexion. Réessayez dans 4 s.');
    expect(signInErrorMessage('AccountLocked:900')).toMatch(/^Compte temporairement verrouillé après trop de tentatives de connexion : réessayez dans 15 min\./);
    expect(signInErrorMessage('AddressBlocked:61')).toBe('Trop de tentatives de connexion depuis votre adresse réseau : réessayez dans 2 min.');
    expect(signInErrorMessage('<script>alert(1)</script>')).toBe('La connexion a échoué. Réessayez.');
    expect(signInErrorMessage(undefined)).toBeNull();
    expect(loginPageState({ error: 'AccountLocked:900' }, jar(validCookie))).toMatchObject({ error: expect.stringContaining('verrouillé') });
  });

  it('keeps the callback on this site', () => {
    expect(sameSitePath('/x?y=1#z')).toBe('/x?y=1#z');
    expect(sameSitePath('http://localhost:3000/x')).toBe('/x');
    for (const url of ['//evil.example/x', '/\\evil.example', 'https://evil.example/x', 'javascript:alert(1)', '']) expect(sameSitePath(url)).toBeNull();
  });

  it('reads the cookie next-auth names: __Host- prefixed when the app is served over https', () => {
    const before = process.env.APP_BASE_URL;
    process.env.APP_BASE_URL = 'https://app.example.fr';
    try {
      expect(csrfCookieName()).toBe('__Host-next-auth.csrf-token');
    } finally {
      if (before === undefined) delete process.env.APP_BASE_URL;
      else process.env.APP_BASE_URL = before;
    }
    expect(csrfCookieName()).toBe('next-auth.csrf-token');
  });
});
