import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseFlag, parseHttpUrl, parseInteger, parseSecretKey, parseTrustProxy } from './schema';
import { LOG_LEVELS } from './entries';

export {
  type ConfigEntry,
  type ConfigProblem,
  configEntries,
  configFix,
  configProblems,
  configSchema,
  configurationTable,
  configVariables,
  formatConfigProblem,
  README_TABLE_END,
  README_TABLE_START,
  runtimeVariables,
  withConfigurationTable,
} from './schema';

// The readers below are views of the schema's parsers (./schema.ts), read at each call; the start checks them all once.

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
 * client sent one). The client's address is the entry that many places from the right (lib/platform/auth/client-address.ts).
 * `true` means 1.
 */
export function trustedProxyCount(): number {
  return parseTrustProxy(process.env.TRUST_PROXY);
}

export interface StripeSettings {
  secretKey: string;
  /** The Connect endpoint's signing secret (provider events); null when unset. */
  webhookSecret: string | null;
  /** STRIPE_API_BASE: the SDK talks to this server instead of api.stripe.com (the tests' fake, any compatible mock). */
  apiBase: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

/**
 * Online payment (DESIGN §8): STRIPE_SECRET_KEY turns it on (unset: null, the endpoints answer 503
 * payments_disabled), STRIPE_WEBHOOK_SECRET checks provider events, STRIPE_API_BASE (a URL) redirects the SDK.
 */
export function stripeSettings(env: Record<string, string | undefined> = process.env): StripeSettings | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const url = parseHttpUrl('STRIPE_API_BASE', env.STRIPE_API_BASE, 'http://127.0.0.1:12111');
  let apiBase: StripeSettings['apiBase'] = null;
  if (url) {
    const protocol = url.protocol === 'https:' ? 'https' : 'http';
    apiBase = { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80, protocol };
  }
  return { secretKey, webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || null, apiBase };
}

/**
 * DEMO_DATA=true (`npm run dev` sets it unless DEMO_DATA is given): at start, the demo org, while it has no client
 * and no document, is filled once with clients, quotes and invoices in every state (lib/composition/demo-data.ts).
 */
export function demoDataEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return parseFlag(env.DEMO_DATA);
}

/**
 * PA_SANDBOX=true (development only: ignored when NODE_ENV=production): the server starts the sandbox PA beside it, in a
 * process of its own on PA_SANDBOX_PORT (default 4010), and connects the demo org to it when it has no PA yet
 * (docs/einvoicing.md). Null when off; else the port.
 */
export function paSandboxPort(env: Record<string, string | undefined> = process.env): number | null {
  if (!parseFlag(env.PA_SANDBOX) || env.NODE_ENV === 'production') return null;
  return parseInteger('PA_SANDBOX_PORT', env.PA_SANDBOX_PORT, 4010, { min: 1, max: 65535, what: 'a port number' });
}

/**
 * WEBHOOKS_ALLOW_PRIVATE=true lets webhook endpoints use http and loopback, private, link-local… addresses (tests and
 * local development only: on a server it opens the internal network to whoever can register an endpoint).
 */
export function webhooksAllowPrivate(env: Record<string, string | undefined> = process.env): boolean {
  return parseFlag(env.WEBHOOKS_ALLOW_PRIVATE);
}

/**
 * EINVOICING_ALLOW_PRIVATE=true lets pdp_config (the PA connection) use http and loopback, private, link-local…
 * addresses (a PA on the operator's own network, the tests' sandbox PA; on a shared server it opens the internal
 * network to whoever may edit an org's PA settings). Unset, it follows PA_SANDBOX: on while the development sandbox
 * PA runs beside the app (never under NODE_ENV=production, paSandboxPort), off otherwise. `false` refuses even then.
 */
export function einvoicingAllowPrivate(env: Record<string, string | undefined> = process.env): boolean {
  const raw = env.EINVOICING_ALLOW_PRIVATE?.trim().toLowerCase();
  if (raw) return parseFlag(raw);
  return paSandboxPort(env) !== null;
}

/**
 * COMPANY_REGISTRY_URL (e.g. https://recherche-entreprises.api.gouv.fr): turns on "Remplir depuis le SIREN" in the
 * contact and organisation forms (lib/domain/company-registry). Unset: off, no request leaves for the register.
 */
export function companyRegistryUrl(env: Record<string, string | undefined> = process.env): string | null {
  const url = parseHttpUrl('COMPANY_REGISTRY_URL', env.COMPANY_REGISTRY_URL, 'https://recherche-entreprises.api.gouv.fr');
  return url ? env.COMPANY_REGISTRY_URL!.trim().replace(/\/$/, '') : null;
}

/** WEBHOOK_DELIVERY_RETENTION_DAYS (default 30): finished webhook deliveries older than this are deleted daily. */
export function webhookDeliveryRetentionDays(env: Record<string, string | undefined> = process.env): number {
  return parseInteger('WEBHOOK_DELIVERY_RETENTION_DAYS', env.WEBHOOK_DELIVERY_RETENTION_DAYS, 30, { min: 1, what: 'a whole number of days (1 or more)' });
}

export interface SecretKey {
  /** Short identity written beside each ciphertext (first 8 hex digits of the key's SHA-256), so rotation knows which key sealed it. */
  id: string;
  key: Buffer;
}

const secretKeyFrom = (raw: string, name: string): Buffer => parseSecretKey(name, raw);

/**
 * The AES-256-GCM keys that seal secrets stored in the database (e-invoicing pdp_config.client_secret, docs/einvoicing.md):
 * SECRETS_ENCRYPTION_KEY (32 bytes, hex or base64) seals; SECRETS_ENCRYPTION_KEY_PREVIOUS, during a rotation, still opens
 * what the previous key sealed (`npm run cli -- einvoicing:reseal-secrets` re-seals them with the current one). Unset: a
 * key derived from AUTH_SECRET (HKDF-SHA256, its own label), so the embedded demo needs nothing — and changing AUTH_SECRET
 * then makes the stored secrets unreadable (they must be entered again).
 */
export function secretEncryptionKeys(env: Record<string, string | undefined> = process.env): { current: SecretKey; previous: SecretKey | null } {
  const raw = env.SECRETS_ENCRYPTION_KEY?.trim();
  const current = raw
    ? secretKeyFrom(raw, 'SECRETS_ENCRYPTION_KEY')
    : Buffer.from(hkdfSync('sha256', authSecret(), 'paraphe', 'stored-secrets', 32));
  const previousRaw = env.SECRETS_ENCRYPTION_KEY_PREVIOUS?.trim();
  const identify = (key: Buffer): SecretKey => ({ id: createHash('sha256').update(key).digest('hex').slice(0, 8), key });
  return { current: identify(current), previous: previousRaw ? identify(secretKeyFrom(previousRaw, 'SECRETS_ENCRYPTION_KEY_PREVIOUS')) : null };
}

/**
 * SANDBOX_THREADS (default 1): how many untrusted files (uploaded PDFs, received e-invoices, drawn signatures) are
 * parsed or rendered at once per process, each in a worker thread of lib/platform/sandbox. One leaves the other
 * cores to the requests whatever the files do; more only help a process that receives many at once.
 */
export function sandboxThreads(env: Record<string, string | undefined> = process.env): number {
  return parseInteger('SANDBOX_THREADS', env.SANDBOX_THREADS, 1, { min: 1, max: 64, what: 'a whole number from 1 to 64' });
}

/** LOG_LEVEL (default `info`; `warn` under the tests): the lowest level lib/platform/log writes. */
export function logLevel(env: Record<string, string | undefined> = process.env): string {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw && LOG_LEVELS.includes(raw)) return raw;
  return env.NODE_ENV === 'test' ? 'warn' : 'info';
}

/** SHUTDOWN_GRACE_SECONDS (default 25): how long running jobs may finish after SIGTERM before they are handed back. */
export function shutdownGraceSeconds(env: Record<string, string | undefined> = process.env): number {
  return parseInteger('SHUTDOWN_GRACE_SECONDS', env.SHUTDOWN_GRACE_SECONDS, 25, { min: 0, max: 3600, what: 'a whole number of seconds from 0 to 3600' });
}

/** OTEL_EXPORTER_OTLP_ENDPOINT: traces and metrics are exported only when it is set (lib/platform/telemetry). */
export function otlpEndpoint(env: Record<string, string | undefined> = process.env): string | null {
  return parseHttpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT, 'http://collector:4318') ? env.OTEL_EXPORTER_OTLP_ENDPOINT!.trim() : null;
}
