import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getToken } from 'next-auth/jwt';
import { getDb } from '@/db/client';
import { appBaseUrl, authSecret } from '@/lib/platform/config';
import { authenticateUser, getMembership, listUserOrgs, readsOnly } from '@/lib/platform/orgs';
import { clientAddress, type Scope, SCOPES } from '@/lib/platform/auth';
import { throttledSignIn } from './throttle';

/** Staff session: next-auth credentials sign-in, JWT cookie carrying the user and the active org. */
export function authOptions(): NextAuthOptions {
  // next-auth builds its redirects from NEXTAUTH_URL: default it to the app's own URL (PORT-aware).
  process.env.NEXTAUTH_URL ??= appBaseUrl();
  return {
    secret: authSecret(),
    session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
    // Served over https: the session and CSRF cookies are Secure (and __Secure-/__Host- prefixed), whatever NEXTAUTH_URL says.
    useSecureCookies: appBaseUrl().startsWith('https://'),
    // A refusal thrown by authorize (a throttle's `AccountLocked:900`) comes back to the login page as ?error=, which
    // words the known codes (app/login/messages.ts); wrong credentials come back as ?error=CredentialsSignin.
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'E-mail',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Mot de passe', type: 'password' } },
        // Throttled per account and per client address (lib/platform/next/throttle.ts); a refusal throws SignInThrottled,
        // whose message next-auth passes to the login page as ?error=.
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const { email, password } = credentials;
          const db = await getDb();
          return throttledSignIn(db, { email, address: clientAddress(req?.headers ?? {}) }, () => authenticateUser(db, email, password));
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user, trigger, session }) {
        const db = await getDb();
        if (user) {
          const [first] = await listUserOrgs(db, user.id);
          token.orgId = first?.id ?? null;
        }
        // The org switcher asks for another org: granted only to a member of it.
        const wanted = (session as { orgId?: unknown } | undefined)?.orgId;
        if (trigger === 'update' && typeof wanted === 'string' && token.sub) {
          if (await getMembership(db, wanted, token.sub)) token.orgId = wanted;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub, orgId: (token.orgId as string | null) ?? null };
      },
    },
  };
}

export interface SessionPrincipal {
  kind: 'session';
  userId: string;
  orgId: string | null;
  scopes: Scope[];
  /** The read-only role (« comptable »): read scopes only, and route() refuses it every write. */
  readOnly: boolean;
}

/** The scopes of a session: every one, or the read ones for the read-only role. */
const READ_SCOPES = SCOPES.filter((s) => s.endsWith(':read'));

function parseCookies(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of header?.split(';') ?? []) {
    const i = part.indexOf('=');
    if (i > 0) map.set(part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim()));
  }
  return map;
}

/**
 * Reads the staff session from a request's cookies. The active org is re-checked against memberships on
 * every request, so a removed member loses access at once. Staff act with every scope, the accountant with the read ones.
 */
export async function readSession(req: Request): Promise<SessionPrincipal | null> {
  const cookies = parseCookies(req.headers.get('cookie'));
  if (![...cookies.keys()].some((name) => name.includes('next-auth.session-token'))) return null;
  const token = await getToken({
    req: { headers: new Headers(), cookies } as never,
    secret: authSecret(),
    secureCookie: [...cookies.keys()].some((name) => name.startsWith('__Secure-next-auth.session-token')),
  });
  if (!token?.sub) return null;
  const orgId = typeof token.orgId === 'string' ? token.orgId : null;
  const member = orgId ? await getMembership(await getDb(), orgId, token.sub) : null;
  const readOnly = readsOnly(member?.role);
  return { kind: 'session', userId: token.sub, orgId: member ? orgId : null, scopes: readOnly ? [...READ_SCOPES] : [...SCOPES], readOnly };
}
