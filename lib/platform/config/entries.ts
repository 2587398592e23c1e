import { clean, type Env, parseFlag, parseHttpUrl, parseInteger, parseSecretKey, parseTrustProxy, TRUE } from './parsers';

/** The variables the app reads, one README row each (schema.ts turns them into the zod schema and the table). */

export interface Field {
  /** How to correct a bad value, said after the error at start. */
  fix: string;
  parse?: (raw: string | undefined, env: Env) => unknown;
}

export interface ConfigEntry {
  /** The README's first column (default: the variable names, in code). */
  label?: string;
  default: string;
  effect: string;
  fields: Record<string, Field>;
}

const text: Field = { fix: 'set it to a non-empty value, or unset it' };
const integer = (name: string, fallback: number, options: Parameters<typeof parseInteger>[3] = {}): Field => ({
  fix: `set ${name} to ${options.what ?? `a whole number ≥ ${options.min ?? 0}`}, or unset it (default ${fallback})`,
  parse: (raw) => parseInteger(name, raw, fallback, options),
});
const flag: Field = {
  fix: 'set it to true or false',
  parse: (raw) => {
    const v = raw?.trim().toLowerCase();
    if (v && ![...TRUE, 'false', '0', 'no', 'on', 'off'].includes(v)) throw new Error(`must be true or false, not "${raw}".`);
    return parseFlag(raw);
  },
};
/** pino's levels (LOG_LEVEL). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

const signIn = (name: string, fallback: number): [string, Field] => [name, integer(name, fallback, { min: 1 })];

export const configEntries: ConfigEntry[] = [
  {
    default: 'unset → PGlite in `.data/pglite`',
    effect: '`postgres://…` uses PostgreSQL through a `pg` pool. Migrations apply at every start.',
    fields: {
      DATABASE_URL: {
        fix: 'set DATABASE_URL to postgres://user:password@host:5432/database (percent-encode special characters of the password), or unset it for the embedded PGlite',
        parse: (value) => {
          const raw = clean(value);
          if (!raw) return null;
          let url: URL;
          try {
            url = new URL(raw);
          } catch {
            throw new Error('DATABASE_URL is not a URL.');
          }
          if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, not a ${url.protocol} one.`);
          if (!url.hostname && !url.searchParams.get('host')) throw new Error('DATABASE_URL names no host.');
          return raw;
        },
      },
    },
  },
  {
    default: '`.data/pglite`',
    effect: 'where the embedded database lives (`memory` for a throw-away one). One process at a time: a second one stops with a clear message.',
    fields: { PGLITE_DIR: text },
  },
  {
    default: 'unset (the test run sets it)',
    effect: 'with `PGLITE_DIR=memory`: a saved, already migrated database to start from.',
    fields: { PGLITE_TEMPLATE: text },
  },
  { default: '`10`', effect: 'PostgreSQL pool size per process.', fields: { DATABASE_POOL_MAX: integer('DATABASE_POOL_MAX', 10, { min: 1 }) } },
  {
    default: '`http://localhost:$PORT`',
    effect: 'public URL of the app (payment and signing links, OpenAPI `servers`).',
    fields: {
      APP_BASE_URL: { fix: 'set APP_BASE_URL to the public URL of the app, such as https://factures.example.fr', parse: (raw) => parseHttpUrl('APP_BASE_URL', raw, 'https://factures.example.fr') },
    },
  },
  { default: '`3000`', effect: 'the port `next start` listens on; `APP_BASE_URL` defaults to `http://localhost:$PORT`.', fields: { PORT: integer('PORT', 3000, { min: 1, max: 65535, what: 'a port number' }) } },
  {
    default: 'generated once into `.data/auth-secret`',
    effect: 'signs staff sessions and pagination cursors. **Set it** (same value on every instance) in production: required there, 32 bytes or more.',
    fields: {
      AUTH_SECRET: {
        fix: 'set AUTH_SECRET to 32 random bytes or more, the same on every instance (openssl rand -base64 32)',
        parse: (raw, env) => {
          if (env.NODE_ENV !== 'production') return clean(raw) ?? null;
          if (!raw) throw new Error('AUTH_SECRET is not set; production needs it (sessions must survive a restart and be shared by every instance).');
          if (Buffer.byteLength(raw) < 32) throw new Error(`AUTH_SECRET is ${Buffer.byteLength(raw)} bytes long; production needs 32 or more.`);
          return raw;
        },
      },
    },
  },
  {
    default: '`APP_BASE_URL`',
    effect: "the back-office's own URL, for next-auth's sign-in redirects.",
    fields: { NEXTAUTH_URL: { fix: 'set NEXTAUTH_URL to the URL of the back-office, or unset it', parse: (raw) => parseHttpUrl('NEXTAUTH_URL', raw, 'https://factures.example.fr') } },
  },
  {
    default: '`inline`',
    effect: '`inline` runs the job worker inside the server; `off` leaves jobs to `npm run worker` processes.',
    fields: {
      WORKER_MODE: {
        fix: 'set WORKER_MODE to inline or off',
        parse: (raw) => {
          const v = clean(raw) ?? 'inline';
          if (v !== 'inline' && v !== 'off') throw new Error(`WORKER_MODE must be inline or off, not "${raw}".`);
          return v;
        },
      },
    },
  },
  {
    label: '`EINVOICE_VALIDATOR` (+ `SAXON_JAR`, `EINVOICE_JVM_HEAP`)',
    default: '`jvm` when Java and Saxon-HE are installed, else `saxonjs`',
    effect:
      'the engine of the Factur-X schematrons checked before an invoice is sealed: Saxon-HE on a JVM (Debian `default-jre-headless libsaxonhe-java`, jar at `/usr/share/java/Saxon-HE.jar`; about 20 ms of CPU per invoice, 275 MB per process) or SaxonJS in worker threads (no Java; about 130 ms). Both report the same (docs/facturx.md, "Two engines").',
    fields: {
      EINVOICE_VALIDATOR: {
        fix: 'set EINVOICE_VALIDATOR to jvm or saxonjs, or unset it',
        parse: (raw) => {
          if (raw && raw !== 'jvm' && raw !== 'saxonjs') throw new Error(`EINVOICE_VALIDATOR must be jvm or saxonjs, not "${raw}"`);
          return raw ?? null;
        },
      },
      SAXON_JAR: text,
      EINVOICE_JVM_HEAP: {
        fix: 'set EINVOICE_JVM_HEAP to a JVM heap size such as 512m or 1g',
        parse: (raw) => {
          if (raw && !/^\d+[kKmMgG]?$/.test(raw.trim())) throw new Error(`EINVOICE_JVM_HEAP must be a JVM heap size such as 512m, not "${raw}".`);
          return raw ?? '512m';
        },
      },
    },
  },
  {
    label: '`RATE_LIMIT_POINTS` / `RATE_LIMIT_WINDOW_SECONDS`',
    default: '`1000` / `60`',
    effect: 'per-API-key quota, counted in the database (shared by every instance; each process leases 1 % of it at a time, see docs/foundation.md).',
    fields: { RATE_LIMIT_POINTS: integer('RATE_LIMIT_POINTS', 1000, { min: 1 }), RATE_LIMIT_WINDOW_SECONDS: integer('RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1 }) },
  },
  {
    default: '`300`',
    effect: 'requests one client address may make per minute to the public signing and payment API.',
    fields: { SIGN_RATE_LIMIT_POINTS: integer('SIGN_RATE_LIMIT_POINTS', 300, { min: 1 }) },
  },
  {
    default: '`0`',
    effect:
      "how many reverse proxies in front of the app append to `X-Forwarded-For`: the client's address (per-address throttles) is the entry that many places from the right. With `0` a client reaching `next start` directly can write its own (docs/security.md).",
    fields: { TRUST_PROXY: { fix: 'set TRUST_PROXY to the number of proxies in front of the app (0, 1, 2…) or true/false', parse: (raw) => parseTrustProxy(raw) } },
  },
  {
    label: '`SIGNIN_DELAY_AFTER` / `SIGNIN_LOCK_AFTER` / `SIGNIN_LOCK_SECONDS`, `SIGNIN_ADDRESS_*`, `API_KEY_FAILURES_PER_MINUTE` …',
    default: '`5` / `10` / `900` …',
    effect: 'sign-in and invalid-key throttling (waits, account lock, address block); every setting and its default in docs/security.md.',
    fields: Object.fromEntries([
      signIn('SIGNIN_WINDOW_SECONDS', 900),
      signIn('SIGNIN_LOCK_SECONDS', 900),
      signIn('SIGNIN_DELAY_AFTER', 5),
      signIn('SIGNIN_MAX_DELAY_SECONDS', 60),
      signIn('SIGNIN_LOCK_AFTER', 10),
      signIn('SIGNIN_ADDRESS_DELAY_AFTER', 10),
      signIn('SIGNIN_ADDRESS_MAX_DELAY_SECONDS', 4),
      signIn('SIGNIN_ADDRESS_BLOCK_AFTER', 50),
      signIn('API_KEY_FAILURES_PER_MINUTE', 20),
      signIn('API_KEY_FAILURE_BLOCK_SECONDS', 300),
    ]),
  },
  {
    label: '`DEMO_EMAIL` / `DEMO_PASSWORD`',
    default: '`demo@paraphe.test` / random',
    effect: 'the staff login seeded on an empty database.',
    fields: { DEMO_EMAIL: text, DEMO_PASSWORD: text },
  },
  {
    default: '`true` under `npm run dev`, unset otherwise',
    effect:
      '`true`: at start, the demo org (the first org), while it has no client and no document, gets a few clients and quotes and invoices in every state, issued through the real services (numbering, hash chain, payments); once only. `DEMO_DATA=false npm run dev` starts empty (docs/foundation.md).',
    fields: { DEMO_DATA: flag },
  },
  {
    default: 'unset → outbox',
    effect: 'send e-mails through Resend; unset, they stay in the outbox shown at `/dev/mail` (see `docs/email.md`).',
    fields: { RESEND_API_KEY: text },
  },
  {
    default: '`https://api.resend.com`',
    effect: 'Resend API endpoint (the tests point it at a local fake).',
    fields: { RESEND_BASE_URL: { fix: 'set RESEND_BASE_URL to an http(s) URL, or unset it', parse: (raw) => parseHttpUrl('RESEND_BASE_URL', raw, 'https://api.resend.com') } },
  },
  {
    default: 'unset',
    effect: 'signing secret (`whsec_…`) of the Resend webhook at `/api/webhooks/resend`; unset, the webhook answers 503.',
    fields: { RESEND_WEBHOOK_SECRET: text },
  },
  {
    default: '`Paraphe <factures@paraphe.test>`',
    effect: "sender of every e-mail (a domain verified with Resend); replies go to each e-mail's `reply_to`.",
    fields: { EMAIL_FROM: text },
  },
  {
    default: '`.data/storage`',
    effect: 'where rendered PDFs are stored when no S3 bucket is configured (see `docs/facturx.md`). Checked readable and writable at start.',
    fields: { STORAGE_DIR: { fix: 'set STORAGE_DIR to a directory the app may read and write (or create)' } },
  },
  {
    label: '`S3_BUCKET` (+ `S3_ENDPOINT`, `S3_REGION`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`, `S3_FORCE_PATH_STYLE`)',
    default: 'unset → `STORAGE_DIR`',
    effect: 'store files in an S3-compatible bucket (AWS SDK); `S3_FORCE_PATH_STYLE=true` for MinIO-style endpoints.',
    fields: {
      S3_BUCKET: text,
      S3_ENDPOINT: { fix: 'set S3_ENDPOINT to an http(s) URL, or unset it', parse: (raw) => parseHttpUrl('S3_ENDPOINT', raw, 'https://s3.eu-west-3.amazonaws.com') },
      S3_REGION: text,
      S3_ACCESS_KEY_ID: text,
      S3_SECRET_ACCESS_KEY: text,
      S3_FORCE_PATH_STYLE: flag,
    },
  },
  {
    label: '`SIGNATURE_CERT_PATH` / `SIGNATURE_CERT_PASSWORD`',
    default: 'unset → a development certificate made once in `.data/signature-seal.p12` (refused in production)',
    effect:
      'the PKCS#12 (`.p12`) of the certificate that seals signed documents and its password. **Required in production**: the server and the worker stop at start when it is missing, unreadable, expired, without its private key or the password is wrong (docs/signature.md).',
    fields: {
      SIGNATURE_CERT_PATH: {
        fix: 'set SIGNATURE_CERT_PATH to a readable PKCS#12 (.p12) file of the sealing certificate and SIGNATURE_CERT_PASSWORD to its password',
        parse: (raw, env) => {
          if (!clean(raw) && env.NODE_ENV === 'production') throw new Error('SIGNATURE_CERT_PATH is not set; production needs the PKCS#12 of the sealing certificate.');
          return clean(raw) ?? null;
        },
      },
      SIGNATURE_CERT_PASSWORD: { fix: 'set SIGNATURE_CERT_PASSWORD to the password of the PKCS#12 file' },
    },
  },
  {
    default: 'unset → online payment off',
    effect:
      "the platform's Stripe secret key (Connect): each org's payments go to its own connected account. Unset, `payment-link` and `send-for-payment` answer 503 `payments_disabled` (see `docs/payments.md`).",
    fields: { STRIPE_SECRET_KEY: text },
  },
  {
    default: 'unset',
    effect: 'signing secret (`whsec_…`) of the Connect endpoint that sends provider events to `/api/stripe/webhook`; unset, it answers 503 (see `docs/payments.md`).',
    fields: { STRIPE_WEBHOOK_SECRET: text },
  },
  {
    default: 'unset → `https://api.stripe.com`',
    effect: "a URL (`http://127.0.0.1:12111`): the Stripe SDK talks to that host, port and protocol instead (the tests' fake, any compatible mock).",
    fields: { STRIPE_API_BASE: { fix: 'set STRIPE_API_BASE to an http(s) URL such as http://127.0.0.1:12111, or unset it', parse: (raw) => parseHttpUrl('STRIPE_API_BASE', raw, 'http://127.0.0.1:12111') } },
  },
  {
    default: '`false`',
    effect:
      '`true`: webhook endpoints may use `http` and loopback, private, link-local… addresses (tests and local development only; a warning is logged at start). See `docs/webhooks.md`.',
    fields: { WEBHOOKS_ALLOW_PRIVATE: flag },
  },
  {
    default: '`false` (unset: follows `PA_SANDBOX`, never in production)',
    effect:
      '`true`: `pdp_config` (the PA) may use `http` and loopback, private, link-local… addresses (a PA on your own network, the sandbox PA; a warning is logged at start). `false` refuses even beside the sandbox. See `docs/security.md` (Outbound calls).',
    fields: { EINVOICING_ALLOW_PRIVATE: flag },
  },
  {
    default: '`30`',
    effect: 'finished webhook deliveries (succeeded or failed) older than this are deleted by a daily job (docs/webhooks.md).',
    fields: { WEBHOOK_DELIVERY_RETENTION_DAYS: integer('WEBHOOK_DELIVERY_RETENTION_DAYS', 30, { min: 1, what: 'a whole number of days (1 or more)' }) },
  },
  {
    default: 'unset → off',
    effect:
      'the public company register (`https://recherche-entreprises.api.gouv.fr`, no key needed): the contact and organisation forms offer « Remplir depuis le SIREN » (legal name, SIREN/SIRET, address, legal form; 4 s timeout). Unset, nothing is asked of the register (docs/contacts.md).',
    fields: {
      COMPANY_REGISTRY_URL: {
        fix: 'set COMPANY_REGISTRY_URL to https://recherche-entreprises.api.gouv.fr, or unset it',
        parse: (raw) => parseHttpUrl('COMPANY_REGISTRY_URL', raw, 'https://recherche-entreprises.api.gouv.fr'),
      },
    },
  },
  {
    label: '`SECRETS_ENCRYPTION_KEY` (+ `SECRETS_ENCRYPTION_KEY_PREVIOUS` while rotating)',
    default: 'derived from `AUTH_SECRET`',
    effect:
      "32 bytes (hex or base64) sealing the secrets stored in the database (the e-invoicing platform's `client_secret`) with AES-256-GCM. **Set it** in production; rotation with `npm run cli -- einvoicing:reseal-secrets` (docs/einvoicing.md).",
    fields: {
      SECRETS_ENCRYPTION_KEY: { fix: 'set SECRETS_ENCRYPTION_KEY to 32 bytes as base64 (openssl rand -base64 32)', parse: (raw) => (clean(raw) ? parseSecretKey('SECRETS_ENCRYPTION_KEY', clean(raw)!) : null) },
      SECRETS_ENCRYPTION_KEY_PREVIOUS: {
        fix: 'set SECRETS_ENCRYPTION_KEY_PREVIOUS to the previous 32-byte key (hex or base64), or unset it',
        parse: (raw) => (clean(raw) ? parseSecretKey('SECRETS_ENCRYPTION_KEY_PREVIOUS', clean(raw)!) : null),
      },
    },
  },
  {
    default: '`info`',
    effect:
      'the lowest level logged: `trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`. One JSON line per event in production (pino), readable lines under `npm run dev`; each line of a request carries its `request_id` and `org_id`, each line of a job its `job_id` and `job_kind`; secrets are redacted (docs/operations.md « Logs »).',
    fields: {
      LOG_LEVEL: {
        fix: 'set LOG_LEVEL to trace, debug, info, warn, error, fatal or silent, or unset it',
        parse: (raw) => {
          const v = clean(raw)?.toLowerCase() ?? null;
          if (v && !LOG_LEVELS.includes(v)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${raw}".`);
          return v;
        },
      },
    },
  },
  {
    label: '`OTEL_EXPORTER_OTLP_ENDPOINT` (+ `OTEL_SERVICE_NAME`, the SDK\'s other `OTEL_*`)',
    default: 'unset → no traces or metrics',
    effect:
      'an OTLP/HTTP collector (`http://collector:4318`): the server and the worker export spans (requests, SQL statements, jobs, outbound calls) and metrics (request latency, queue depth and age per job kind, webhook deliveries, finalizations, e-mails) to it. Service name `paraphe` unless `OTEL_SERVICE_NAME` (docs/operations.md « Traces and metrics »).',
    fields: {
      OTEL_EXPORTER_OTLP_ENDPOINT: {
        fix: 'set OTEL_EXPORTER_OTLP_ENDPOINT to the http(s) URL of an OTLP/HTTP collector such as http://collector:4318, or unset it',
        parse: (raw) => parseHttpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', raw, 'http://collector:4318'),
      },
      OTEL_SERVICE_NAME: text,
    },
  },
  {
    default: '`25`',
    effect:
      'on SIGTERM or SIGINT, how long the server and the worker let running jobs finish after they stop taking new ones; what is still running then is handed back to the queue (retried at once by another process), the pool is closed and the process exits 0 (docs/operations.md « Stopping »).',
    fields: { SHUTDOWN_GRACE_SECONDS: integer('SHUTDOWN_GRACE_SECONDS', 25, { min: 0, max: 3600, what: 'a whole number of seconds from 0 to 3600' }) },
  },
  {
    default: '`1`',
    effect:
      "untrusted files (signature uploads, drawn signatures, received e-invoices, the seal's composition) read at once per process, each in a worker thread bounded in time and heap (docs/security.md « Untrusted files »).",
    fields: { SANDBOX_THREADS: integer('SANDBOX_THREADS', 1, { min: 1, max: 64, what: 'a whole number from 1 to 64' }) },
  },
  {
    default: 'unset → outbox',
    effect: 'the adapter that sends text messages (one-time codes, lib/domain/sms); unset or `outbox`, they stay in the outbox shown at `/dev/sms`.',
    fields: { SMS_PROVIDER: text },
  },
  {
    default: 'unset',
    effect:
      '`true` (development only): `npm run dev` also starts the sandbox PA in its own process and connects the demo org to it when it has no PA (docs/einvoicing.md).',
    fields: { PA_SANDBOX: flag },
  },
  {
    label: '`PA_SANDBOX_PORT` / `PA_SANDBOX_STEP_MS`',
    default: '`4010` / `2000`',
    effect: "port of the sandbox e-invoicing platform (`npm run pa:sandbox`) and the delay between an invoice's statuses there (docs/einvoicing.md).",
    fields: {
      PA_SANDBOX_PORT: integer('PA_SANDBOX_PORT', 4010, { min: 1, max: 65535, what: 'a port number' }),
      PA_SANDBOX_STEP_MS: integer('PA_SANDBOX_STEP_MS', 2000, { min: 0, what: 'a number of milliseconds' }),
    },
  },
];

/** Read but not the operator's to set (no README row): the runtime's own. */
export const runtimeVariables: Record<string, Field> = {
  NODE_ENV: { fix: 'set NODE_ENV to production, development or test' },
  NEXT_RUNTIME: text,
  NEXT_PHASE: text,
  // Set by `npm start` so that next's own signal handler leaves the stop to lib/composition/shutdown.ts.
  NEXT_MANUAL_SIG_HANDLE: text,
  PATH: text,
};
