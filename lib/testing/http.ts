import { recordApiExample } from './api-examples';
import { checkDeclaredError } from './error-codes';

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
}

// biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls a Next.js route handler the way the server would: a real Request in, the real Response out. */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
export async function call<T = any>(handler: RouteHandler, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL(path, 'http://localhost:3000');
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  let body: string | undefined = options.rawBody;
  // A raw body is JSON (perhaps malformed) unless the test says otherwise; fetch would label a string text/plain.
  if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('content-type', 'application/json');
  }
  const res = await handler(new Request(url, { method, headers, body }), { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  // A /v1 operation's error code must be one it declares (lib/testing/error-codes.ts).
  checkDeclaredError(method, url, res.status, parsed);
  // RECORD_API_EXAMPLES=1 (npm run openapi:record-examples): the call becomes an example of the document.
  recordApiExample(method, url, options.rawBody === undefined ? options.body : undefined, res.status, res.headers.get('content-type'), parsed);
  return { status: res.status, body: parsed as T, headers: res.headers };
}
