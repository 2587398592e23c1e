import { AsyncLocalStorage } from 'node:async_hooks';
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { logLevel } from '@/lib/platform/config';

/**
 * The process's one logger (issue 34): pino, one JSON line per event in production and under the tests, readable
 * lines under `npm run dev`. Every line written while a request or a job runs carries what identifies it — the
 * request's `request_id` and `org_id`, the job's `job_id`, `job_kind` and `attempt` — from an AsyncLocalStorage
 * context that `withLogContext` opens (lib/platform/next/handler.ts, lib/platform/jobs/queue.ts), and the trace's ids
 * when OpenTelemetry traces it. Secrets and personal data are redacted twice: by key anywhere in a logged object
 * (REDACTED_KEYS) and by shape in every string (an API key, a bearer credential, an IBAN, an e-mail address).
 */

export interface LogContext {
  request_id?: string;
  org_id?: string;
  job_id?: string;
  job_kind?: string;
  attempt?: number;
}

/** Keys whose values never reach a log line, wherever they sit in a logged object (lowercase, compared lowercased). */
export const REDACTED_KEYS = [
  'password',
  'new_password',
  'current_password',
  'secret',
  'client_secret',
  'api_key',
  'apikey',
  'key',
  'token',
  'access_token',
  'refresh_token',
  'authorization',
  'cookie',
  'set-cookie',
  'iban',
  'bic',
  'html',
  'text',
  'body',
  'email_body',
  'otp',
  'code_hash',
  'signature_value',
];

const REDACTED = '[redacted]';

/** Shapes of secrets and personal data in free text: replaced wherever they appear in a message or a string value. */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  [/paraphe_pk_(?:live|test)_[A-Za-z0-9_]+/g, 'paraphe_pk_[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [/\b(whsec|sk_live|sk_test|rk_live|rk_test|re)_[A-Za-z0-9]{8,}/g, '$1_[redacted]'],
  // An IBAN: two letters, two digits, then 11 to 30 letters and digits, in groups of four or not.
  [/\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g, '[iban redacted]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[e-mail redacted]'],
  [/((?:password|token|secret|key)=)[^&\s]+/gi, '$1[redacted]'],
];

export function redactText(text: string): string {
  let out = text;
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}

const redactedKeys = new Set(REDACTED_KEYS);

/** A copy of a logged value with secret keys censored and secret shapes replaced (depth-bounded, cycle-safe). */
export function redactValue(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6 || seen.has(value)) return '[…]';
  seen.add(value);
  if (value instanceof Error) {
    const error: Record<string, unknown> = { type: value.name, message: redactText(value.message), stack: value.stack ? redactText(value.stack) : undefined };
    for (const [k, v] of Object.entries(value)) error[k] = redactedKeys.has(k.toLowerCase()) ? REDACTED : redactValue(v, depth + 1, seen);
    if (value.cause !== undefined) error.cause = redactValue(value.cause, depth + 1, seen);
    return error;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactedKeys.has(k.toLowerCase()) ? REDACTED : redactValue(v, depth + 1, seen);
  return out;
}

/** Where the lines go: stdout, or a test's capture (captureLogs). */
interface Sink {
  write(line: string): void;
}

interface LogState {
  context: AsyncLocalStorage<LogContext>;
  logger: Logger | null;
  captures: Set<string[]>;
}

// Shared by every copy of this module in the process (Next.js bundles the instrumentation hook and the routes apart).
const stateKey = Symbol.for('paraphe.log');
const shared = globalThis as Record<symbol, LogState | undefined>;
shared[stateKey] ??= { context: new AsyncLocalStorage<LogContext>(), logger: null, captures: new Set() };
const state: LogState = shared[stateKey];

function destination(): Sink {
  const json: Sink = {
    write(line) {
      for (const capture of state.captures) capture.push(line);
      process.stdout.write(line);
    },
  };
  if (process.env.NODE_ENV !== 'development') return json;
  const readable = pretty({ sync: true, colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return {
    write(line) {
      for (const capture of state.captures) capture.push(line);
      readable.write(line);
    },
  };
}

function createLogger(): Logger {
  return pino(
    {
      level: logLevel(),
      base: { service: 'paraphe' },
      messageKey: 'msg',
      errorKey: 'err',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The request's or job's identity, and the trace's, on every line written inside it.
      mixin() {
        const context = state.context.getStore();
        const span = trace.getActiveSpan()?.spanContext();
        return { ...context, ...(span?.traceFlags ? { trace_id: span.traceId, span_id: span.spanId } : {}) };
      },
      hooks: {
        // Every argument is redacted before pino serialises it: an object's secret keys, and secret shapes in the
        // message and in every string (a message built with an e-mail address or an API key in it).
        logMethod(args, method) {
          const redacted = args.map((arg) => redactValue(arg)) as Parameters<typeof method>;
          return method.apply(this, redacted);
        },
      },
    },
    destination(),
  );
}

/** The process's logger. Use `log.child({ module: 'webhooks' })` for a module's lines. */
export function logger(): Logger {
  state.logger ??= createLogger();
  return state.logger;
}

/** Shorthand for `logger()`, read at each call (tests change LOG_LEVEL; `resetLogger` rebuilds it). */
export const log = {
  trace: (obj: unknown, msg?: string) => logAt('trace', obj, msg),
  debug: (obj: unknown, msg?: string) => logAt('debug', obj, msg),
  info: (obj: unknown, msg?: string) => logAt('info', obj, msg),
  warn: (obj: unknown, msg?: string) => logAt('warn', obj, msg),
  error: (obj: unknown, msg?: string) => logAt('error', obj, msg),
  fatal: (obj: unknown, msg?: string) => logAt('fatal', obj, msg),
};

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** `log.info('message')`, `log.info({ fields }, 'message')`, `log.error(error, 'message')`. */
function logAt(level: Level, obj: unknown, msg?: string) {
  const l = logger();
  if (typeof obj === 'string' && msg === undefined) l[level](obj);
  else if (obj instanceof Error) l[level]({ err: obj }, msg ?? obj.message);
  else l[level](obj as object, msg);
}

/** Runs `fn` with this context on every line it logs (and every line of what it awaits). */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return state.context.run({ ...state.context.getStore(), ...context }, fn);
}

/** Adds to the current context (the org, once the request is authenticated). No-op outside one. */
export function addLogContext(fields: LogContext) {
  const store = state.context.getStore();
  if (store) Object.assign(store, fields);
}

/** The request id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return state.context.getStore()?.request_id;
}

/** Rebuilds the logger (LOG_LEVEL changed). */
export function resetLogger() {
  state.logger?.flush?.();
  state.logger = null;
}

/**
 * The lines logged (as written: JSON, already redacted) while `fn` runs — the tests' window on the log; the lines
 * still go to stdout.
 */
export async function captureLogs<T>(fn: () => Promise<T>): Promise<{ result: T; lines: Array<Record<string, unknown>> }> {
  const capture: string[] = [];
  state.captures.add(capture);
  try {
    const result = await fn();
    return { result, lines: capture.flatMap((line) => line.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)) };
  } finally {
    state.captures.delete(capture);
  }
}
