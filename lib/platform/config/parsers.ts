/** The parsers of the environment's values, shared by the schema's fields (entries.ts) and the readers (index.ts). */

export type Env = Record<string, string | undefined>;

export const TRUE = ['true', '1', 'yes'];
export const clean = (raw: string | undefined) => raw?.trim() || undefined;

export function parseTrustProxy(value: string | undefined): number {
  const raw = value?.trim().toLowerCase();
  if (!raw || raw === 'false') return 0;
  if (raw === 'true') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`TRUST_PROXY must be a number of proxies (0, 1, 2…) or true/false, not "${value}".`);
  return n;
}

export function parseFlag(value: string | undefined): boolean {
  const raw = value?.trim().toLowerCase();
  return raw !== undefined && TRUE.includes(raw);
}

/** A whole number in [min, max], the fallback when unset or blank. */
export function parseInteger(name: string, value: string | undefined, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER, what }: { min?: number; max?: number; what?: string } = {}): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(what ? `${name} must be ${what}, not "${raw}".` : `${name} must be an integer ≥ ${min}${max < Number.MAX_SAFE_INTEGER ? ` and ≤ ${max}` : ''}, not "${raw}".`);
  }
  return n;
}

export function parseHttpUrl(name: string, value: string | undefined, example: string): URL | null {
  const raw = value?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be a URL such as ${example}, not "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http or https URL, not "${raw}".`);
  return url;
}

/** 32 bytes as 64 hex digits or base64 (the AES-256-GCM keys of the stored secrets). */
export function parseSecretKey(name: string, raw: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32), not a ${key.length}-byte value.`);
  return key;
}
