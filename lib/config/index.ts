import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Base URL of the public pages (payment links, signing pages). */
export function appBaseUrl(): string {
  return (process.env.APP_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}

let cachedSecret: string | undefined;

/**
 * AUTH_SECRET signs sessions and pagination cursors. For the embedded demo it may be unset: a random one is
 * generated once and kept in .data/ so sessions survive a restart. Several instances must share AUTH_SECRET.
 */
export function authSecret(): string {
  if (process.env.AUTH_SECRET) return process.env.AUTH_SECRET;
  if (cachedSecret) return cachedSecret;
  const file = path.join(process.cwd(), '.data/auth-secret');
  if (existsSync(file)) {
    cachedSecret = readFileSync(file, 'utf8').trim();
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    cachedSecret = randomBytes(32).toString('base64url');
    writeFileSync(file, cachedSecret, { mode: 0o600 });
  }
  return cachedSecret;
}

/**
 * TRUST_PROXY: how many reverse proxies in front of the app append the address they see to X-Forwarded-For (0 by
 * default: none, clients reach `next start` directly and Next.js sets the header to the socket's address unless the
 * client sent one). The client's address is the entry that many places from the right (lib/auth/client-address.ts).
 * `true` means 1.
 */
export function trustedProxyCount(): number {
  const raw = process.env.TRUST_PROXY?.trim().toLowerCase();
  if (!raw || raw === 'false') return 0;
  if (raw === 'true') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`TRUST_PROXY must be a number of proxies (0, 1, 2…) or true/false, not "${process.env.TRUST_PROXY}".`);
  return n;
}
