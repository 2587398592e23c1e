import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

/** The error body of every failure: `{code, message, field}` (and `errors` for einvoice_invalid). */
export type ParapheErrorBody = components['schemas']['Error'];

export interface ParapheClientOptions {
  /** `paraphe_pk_live_…`, made in Réglages → Clés API. */
  apiKey: string;
  /** The Paraphe instance, e.g. `https://app.paraphe.fr` (no trailing `/v1`: the paths carry it). */
  baseUrl: string;
  /** Retries of a call answered 429 (after `Retry-After`) or 502/503/504, or that failed on the network. Default 2. */
  retries?: number;
  /** Another fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

/** A failed call: the status, the stable `code` (typed by the operation's declared codes), the message and field. */
export class ParapheError<Code extends string = string> extends Error {
  readonly status: number;
  readonly code: Code;
  readonly field: string | null;
  /** The server's X-Request-Id: quote it when reporting a problem. */
  readonly requestId: string | null;
  readonly body: ParapheErrorBody;

  constructor(status: number, body: ParapheErrorBody, requestId: string | null) {
    super(`${status} ${body.code}: ${body.message}`);
    this.name = 'ParapheError';
    this.status = status;
    this.code = body.code as Code;
    this.field = body.field;
    this.requestId = requestId;
    this.body = body;
  }
}

const RETRIED = new Set([429, 502, 503, 504]);
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A fetch that retries what is safe to retry. A POST gets an Idempotency-Key unless the caller gave one, and keeps it
 * across the retries, so a create that reached the server before the connection dropped is answered again rather than
 * done twice. PUT, PATCH and DELETE are idempotent by themselves (the API does not take the header on them).
 */
function retryingFetch(base: typeof globalThis.fetch, retries: number): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (request.method === 'POST' && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', crypto.randomUUID());
    // Read once, sent again on each attempt.
    const bytes = MUTATING.has(request.method) ? await request.arrayBuffer() : undefined;
    const body = bytes?.byteLength ? bytes : undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await base(new Request(request.url, { method: request.method, headers, body, signal: request.signal }));
      } catch (err) {
        if (attempt >= retries || request.signal.aborted) throw err;
        await sleep(backoff(attempt));
        continue;
      }
      if (!RETRIED.has(response.status) || attempt >= retries) return response;
      const after = Number(response.headers.get('Retry-After'));
      await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : backoff(attempt));
    }
  };
}

const backoff = (attempt: number) => 250 * 2 ** attempt;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The typed client: `client.GET('/v1/contacts', { params: { query: { limit: 10 } } })` with the paths, parameters,
 * bodies and answers of the API's OpenAPI document. Each call resolves to `{ data, error, response }`; `unwrap` turns
 * it into the data or a thrown ParapheError.
 */
export function createParapheClient(options: ParapheClientOptions): Client<paths> {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, options.retries ?? 2),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${options.apiKey}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}

type AnyResult = { data?: unknown; error?: unknown; response: Response };
/** What a call answers on success: the data of its success branch (openapi-fetch's `{data, error?: never}`). */
export type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;
/** The error body of its failure branch, whose `code` is the union of the codes the operation declares. */
export type ErrorOf<R> = R extends { error: infer E } ? E : never;
type CodeOf<R> = ErrorOf<R> extends { code: infer C extends string } ? C : string;

/**
 * The data of a successful call, or a ParapheError whose `code` is typed as one of the codes the operation declares:
 * `catch (e) { if (e instanceof ParapheError && e.code === 'already_finalized') … }`.
 */
export async function unwrap<R extends AnyResult>(call: Promise<R>): Promise<DataOf<R>> {
  const { data, error, response } = await call;
  if (error !== undefined) throw new ParapheError<CodeOf<R>>(response.status, error as ParapheErrorBody, response.headers.get('X-Request-Id'));
  return data as DataOf<R>;
}

/** Every item of a cursor-paginated list, page after page (`meta.next_cursor`). */
export async function* paginate<Item>(page: (cursor: string | undefined) => Promise<{ data: Item[]; meta: { next_cursor: string | null } }>) {
  let cursor: string | undefined;
  do {
    const { data, meta } = await page(cursor);
    yield* data;
    cursor = meta.next_cursor ?? undefined;
  } while (cursor);
}
