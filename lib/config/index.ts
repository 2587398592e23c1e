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
