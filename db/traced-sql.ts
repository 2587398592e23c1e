import type { PGlite } from '@electric-sql/pglite';
import { type Context, context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Pool } from 'pg';

/**
 * A span per SQL statement the app runs (issue 34), on both engines, through the OpenTelemetry API (a no-op until
 * a provider is registered: lib/platform/telemetry). The span holds the statement's parameterized text, never its
 * values (which hold personal data). pg-boss's own statements (its polling) are not traced: on PostgreSQL it has its
 * own pool, on PGlite it goes through `Database.sql`.
 */

const MAX_TEXT = 2_000;

function startStatementSpan(text: string, system: 'postgresql', parent: Context): Span {
  const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  return trace.getTracer('paraphe.db').startSpan(
    `${operation}`,
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text } },
    parent,
  );
}

function endStatementSpan(span: Span, error: unknown) {
  if (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

async function traced<T>(text: string, parent: Context, run: () => Promise<T>): Promise<T> {
  const span = startStatementSpan(text, 'postgresql', parent);
  try {
    const result = await run();
    endStatementSpan(span, null);
    return result;
  } catch (error) {
    endStatementSpan(span, error);
    throw error;
  }
}

/** Where a pool query's caller was: pg-pool calls the client later, from whichever request freed a connection. */
export const CALLER_CONTEXT = Symbol('paraphe.sql.caller-context');

/**
 * The pool's `query` carries its caller's context to the connection that runs it (a config object's property, which
 * node-postgres ignores), so that the statement's span is the caller's child even when it waited for a connection.
 */
export function carryCallerContext(pool: Pool): void {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    const carried = typeof config === 'string' ? { text: config, [CALLER_CONTEXT]: context.active() } : config && typeof config === 'object' ? { ...config, [CALLER_CONTEXT]: context.active() } : config;
    return query(carried, ...rest);
  };
}

/**
 * Runs a node-postgres client query (promise or callback form) in a statement span, child of the context the pool
 * carried or of the active one.
 */
export function tracedClientQuery(config: unknown, values: unknown, callback: unknown, run: (config: unknown, values: unknown, callback: unknown) => unknown): unknown {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') return run(config, values, callback);
  const parent = (config as { [CALLER_CONTEXT]?: Context })?.[CALLER_CONTEXT] ?? context.active();
  const cb = typeof values === 'function' ? values : callback;
  if (typeof cb === 'function') {
    const span = startStatementSpan(text, 'postgresql', parent);
    const done = (error: unknown, result: unknown) => {
      endStatementSpan(span, error);
      (cb as (e: unknown, r: unknown) => void)(error, result);
    };
    return typeof values === 'function' ? run(config, done, undefined) : run(config, values, done);
  }
  const result = run(config, values, callback);
  if (!(result instanceof Promise)) return result; // a submittable (cursor, COPY stream)
  return traced(text, parent, () => result);
}

/** The PGlite client drizzle is given: its statements, and those of its transactions, in statement spans. */
export function tracedPglite(client: PGlite): PGlite {
  const wrapQuery = (target: { query: (...args: never[]) => Promise<unknown> }) => (text: string, ...rest: unknown[]) =>
    traced(text, context.active(), () => (target.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest));
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return cached(target, TRACED_QUERY, () => wrapQuery(target as never));
      if (property === 'transaction') {
        return <T>(fn: (tx: unknown) => Promise<T>) =>
          target.transaction((tx) => fn(new Proxy(tx, { get: (t, p) => (p === 'query' ? cached(t, TRACED_QUERY, () => wrapQuery(t as never)) : bindMethod(t, p)) })));
      }
      return bindMethod(target, property);
    },
  });
}

const TRACED_QUERY = Symbol('traced query');

/** The bound copies of a target's methods, made once (drizzle reads `client.query` at every statement). */
const bound = new WeakMap<object, Map<string | symbol, unknown>>();

/** A method read through a proxy runs on its target (PGlite's private fields refuse the proxy as `this`). */
function bindMethod(target: object, property: string | symbol): unknown {
  const value = Reflect.get(target, property);
  if (typeof value !== 'function') return value;
  return cached(target, property, () => value.bind(target));
}

function cached(target: object, key: string | symbol, make: () => unknown): unknown {
  let methods = bound.get(target);
  if (!methods) {
    methods = new Map();
    bound.set(target, methods);
  }
  if (!methods.has(key)) methods.set(key, make());
  return methods.get(key);
}
