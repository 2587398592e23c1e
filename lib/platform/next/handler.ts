import { RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { type Db, getDb } from '@/db/client';
import { type ApiKeyPrincipal, clientAddress, hasScope, refuseCredentialsInQuery, type Scope, verifyApiKey } from '@/lib/platform/auth';
import { readOnlyError } from './action';
import { readSession, type SessionPrincipal } from './session';
import { invalidApiKey } from './throttle';
import { observeRequest } from './observe-request';
import { addLogContext, log } from '@/lib/platform/log';
import { annotateSpan } from '@/lib/platform/telemetry';
import { ApiError, fromZodError, notFound } from '@/lib/platform/errors';
import type { Deprecation } from '@/lib/platform/contract';
import { consumeRateLimit, DEFAULT_BODY_LIMIT, deprecationHeaders, isUnsafeMethod, rateLimitHeaders, readBody, readMultipart, refuseControlCharacters, requireJsonBody, requireMultipartBody, requireSameOrigin, sharedLimiter, withIdempotency } from '@/lib/platform/http';

export type Principal = ApiKeyPrincipal | (SessionPrincipal & { orgId: string });

/** What a handler returns: a JSON reply, or a ready Response for streams and files. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });

type AnySchema = z.ZodType;
type Out<S> = S extends AnySchema ? z.output<S> : undefined;

export interface RouteContext<P, Q, B> {
  req: Request;
  requestId: string;
  db: Db;
  orgId: string;
  principal: Principal;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

interface RouteOptions<P, Q, B> {
  /** Required scope. Every /v1 endpoint has one. */
  scope: Scope;
  /** The operation's path template (`/v1/invoices/{id}/finalize`): how spans, metrics and log lines name the route. */
  path?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Largest body accepted, in bytes (DEFAULT_BODY_LIMIT, 1 MiB, when omitted): more is a 413 before it is read. */
  maxBodyBytes?: number;
  /** `multipart/form-data` for a file upload; JSON otherwise. */
  bodyMediaType?: 'application/json' | 'multipart/form-data';
  /** A deprecated operation's notice: its Deprecation, Sunset and Link headers go on every answer (lib/platform/http/deprecation). */
  deprecated?: Deprecation;
}

type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/**
 * The one wrapper every /v1 route goes through: request id, authentication (API key or staff session, the latter
 * from the back-office's own origin only), scope, per-key rate limit, a JSON body of bounded size, zod parsing of
 * path/query/body, Idempotency-Key replay on POST, and the uniform error body for every failure.
 */
export function route<P extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined>(
  options: RouteOptions<P, Q, B>,
  handler: (ctx: RouteContext<P, Q, B>) => Promise<Reply | Response>,
) {
  return (req: Request, next?: NextRouteContext): Promise<Response> => observeRequest(req, options.path, async (requestId) => {
    // Named "limit" for the quota's headers; a deprecated operation's notice rides with them on every answer.
    let limitHeaders: Record<string, string> = deprecationHeaders(options.deprecated);
    try {
      const db = await getDb();
      const principal = await authenticate(db, req);
      addLogContext({ org_id: principal.orgId });
      annotateSpan({ 'paraphe.org_id': principal.orgId });
      // Every call made with a key counts against its quota, one refused for its scope too.
      if (principal.kind === 'api_key') limitHeaders = { ...limitHeaders, ...rateLimitHeaders(await consumeRateLimit(principal.keyId)) };
      // The read-only role changes nothing, whatever scope a write declares (a POST that only reads included).
      if (principal.kind === 'session' && principal.readOnly && isUnsafeMethod(req.method)) throw readOnlyError();
      if (!hasScope(principal.scopes, options.scope)) {
        throw new ApiError(403, 'forbidden', `This call needs the ${options.scope} scope.`);
      }

      const params = options.params ? parseParams(options.params, (await next?.params) ?? {}) : undefined;
      const query = options.query ? parseWith(options.query, refuseControlCharacters(Object.fromEntries(new URL(req.url).searchParams))) : undefined;
      // Every body of a write is JSON, read or not; only the operations that take one read it, up to their limit.
      // …except the file uploads, which are multipart/form-data (their schema describes the form's fields).
      const multipart = options.bodyMediaType === 'multipart/form-data';
      if (isUnsafeMethod(req.method)) (multipart ? requireMultipartBody : requireJsonBody)(req);
      const limit = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
      const form = options.body && multipart ? await readMultipart(req, limit) : null;
      const rawBody = form ? form.digest : options.body ? await readBody(req, limit) : '';
      // Bodies: their string schemas refuse control characters (lib/platform/contract/schemas wellFormed), so that an import still
      // reports a bad row in its summary instead of refusing the whole request.
      const body = options.body ? parseWith(options.body, form ? form.fields : parseJson(rawBody)) : undefined;
      const ctx = { req, requestId, db, orgId: principal.orgId, principal, params, query, body } as RouteContext<P, Q, B>;

      const idempotencyKey = req.method === 'POST' ? req.headers.get('idempotency-key') : null;
      if (!idempotencyKey) return respond(await handler(ctx), requestId, limitHeaders);

      let passthrough: Response | undefined;
      const stored = await withIdempotency(
        db,
        {
          orgId: principal.orgId,
          principal: principal.kind === 'api_key' ? `key:${principal.keyId}` : `user:${principal.userId}`,
          key: idempotencyKey,
          method: req.method,
          // With its query: the same key on POST …/convert-to-facture?dry_run=true and then without must not replay the dry run.
          path: ((url) => url.pathname + url.search)(new URL(req.url)),
          rawBody,
        },
        async () => {
          const result = await handler(ctx);
          if (result instanceof Response) {
            passthrough = result;
            return null;
          }
          return { status: result.status, body: result.body };
        },
      );
      if (passthrough) return respond(passthrough, requestId, limitHeaders);
      return respond(stored, requestId, { ...limitHeaders, ...(stored.replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
    } catch (err) {
      return errorResponse(err, requestId, limitHeaders);
    }
  });
}

async function authenticate(db: Db, req: Request): Promise<Principal> {
  refuseCredentialsInQuery(req.url); // 400: a password, key or token in the URL is never used
  const authorization = req.headers.get('authorization');
  if (authorization !== null) {
    // Exactly `Bearer <key>`: anything after the key makes it another credential, refused like a bad key.
    const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
    const principal = scheme?.toLowerCase() === 'bearer' && token && rest.length === 0 ? await verifyApiKey(db, token) : null;
    // 401, or 429 once the client's address has sent too many invalid keys (lib/platform/next/throttle.ts)
    if (!principal) throw await invalidApiKey(db, req);
    return principal;
  }
  const session = await readSession(req);
  if (!session) throw new ApiError(401, 'unauthorized', 'Authenticate with an API key (Authorization: Bearer …).');
  if (isUnsafeMethod(req.method)) requireSameOrigin(req);
  if (!session.orgId) throw new ApiError(403, 'no_active_org', 'No active organisation: choose one in the back-office.');
  return session as Principal;
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

function parseWith(schema: AnySchema | undefined, input: unknown) {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** A malformed path id cannot name an existing resource: it is a 404 like any unknown id. */
function parseParams(schema: AnySchema | undefined, input: unknown) {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) throw notFound();
  return result.data;
}

function respond(result: Reply | Response, requestId: string, extra: Record<string, string>): Response {
  if (result instanceof Response) {
    result.headers.set('X-Request-Id', requestId);
    for (const [k, v] of Object.entries(extra)) result.headers.set(k, v);
    return result;
  }
  const headers = { 'X-Request-Id': requestId, ...extra, ...result.headers };
  if (result.status === 204 || result.body === undefined) return new Response(null, { status: result.status, headers });
  return Response.json(result.body, { status: result.status, headers });
}

type PgError = { code: string; message?: string; where?: string };

/** The PostgreSQL error behind a driver or Drizzle wrapper, if any. */
function databaseError(err: unknown): PgError | null {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if (typeof (e as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((e as { code: string }).code)) return e as PgError;
  }
  return null;
}

/** Our integrity triggers are PL/pgSQL functions named `*_immutable` (db/migrations); PostgreSQL names the raiser. */
const IMMUTABILITY_TRIGGER = /PL\/pgSQL function \w+_immutable\(\)/;

export function errorResponse(err: unknown, requestId: string, extra: Record<string, string> = {}): Response {
  if (err instanceof z.ZodError) err = fromZodError(err);
  // A write that reached a finalized record's frozen content, refused by the database itself.
  const dbError = databaseError(err);
  if (dbError?.code === 'P0001' && IMMUTABILITY_TRIGGER.test(dbError.where ?? '')) {
    err = new ApiError(409, 'document_finalized', dbError.message ?? 'This record is finalized and cannot change.');
  }
  if (err instanceof ApiError) {
    return Response.json(err.toBody(), { status: err.status, headers: { 'X-Request-Id': requestId, ...extra, ...err.headers } });
  }
  log.error(err, 'unexpected error');
  return Response.json(
    { code: 'internal_error', message: `An unexpected error occurred (request ${requestId}).`, field: null },
    { status: 500, headers: { 'X-Request-Id': requestId, ...extra } },
  );
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * The JSON 405 for the methods a path does not serve (Next.js would answer them with an empty body). Each route file
 * ends with `export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST')`, naming what it serves.
 */
export function methodNotAllowed(...served: HttpMethod[]): Record<HttpMethod | 'OPTIONS', (req: Request) => Promise<Response>> {
  const allow = [...served, ...(served.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const handler = publicRoute(async (req) => {
    throw new ApiError(405, 'method_not_allowed', `${req.method} is not served on ${new URL(req.url).pathname}; use ${served.join(' or ')}.`, null, {
      Allow: allow,
    });
  });
  // OPTIONS names the methods served (Next.js's own would list the 405 handlers too).
  const options = async () => new Response(null, { status: 204, headers: { Allow: allow } });
  return { ...(Object.fromEntries(HTTP_METHODS.map((m) => [m, handler])) as Record<HttpMethod, typeof handler>), OPTIONS: options };
}

export interface PublicRouteContext<P, Q, B> {
  req: Request;
  requestId: string;
  db: Db;
  /** The client's address (lib/platform/auth/client-address), what the per-address limit counts and the audit records keep. */
  ip: string;
  userAgent: string | null;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** Requests one client address may make per minute to the public API of a limiter prefix; SIGN_RATE_LIMIT_POINTS overrides it. */
export const PUBLIC_RATE_LIMIT_POINTS = 300;

async function limitAddress(prefix: string, address: string): Promise<void> {
  const points = Number(process.env.SIGN_RATE_LIMIT_POINTS ?? PUBLIC_RATE_LIMIT_POINTS);
  try {
    await sharedLimiter({ keyPrefix: prefix, points, duration: 60 }).consume(address);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, 'rate_limited', `Too many requests from this address: retry in ${seconds} s.`, null, { 'Retry-After': String(seconds) });
  }
}

/**
 * The wrapper of the public JSON endpoints authenticated by a secret in their path instead of a key or session (the
 * signer's `/api/sign/<token>/…`): request id, a per-address rate limit, the body's media type and size, zod parsing
 * of path/query/body (a malformed path is a 404), and the uniform error body. The handler checks the secret itself.
 */
export function publicApiRoute<P extends AnySchema | undefined = undefined, Q extends AnySchema | undefined = undefined, B extends AnySchema | undefined = undefined>(
  options: { limitPrefix: string; params?: P; query?: Q; body?: B; maxBodyBytes?: number; bodyMediaType?: 'application/json' | 'multipart/form-data' },
  handler: (ctx: PublicRouteContext<P, Q, B>) => Promise<Reply | Response>,
) {
  return (req: Request, next?: NextRouteContext): Promise<Response> => observeRequest(req, undefined, async (requestId) => {
    try {
      const ip = clientAddress(req.headers);
      await limitAddress(options.limitPrefix, ip);
      const db = await getDb();
      const params = options.params ? parseParams(options.params, (await next?.params) ?? {}) : undefined;
      const query = options.query ? parseWith(options.query, refuseControlCharacters(Object.fromEntries(new URL(req.url).searchParams))) : undefined;
      const multipart = options.bodyMediaType === 'multipart/form-data';
      if (isUnsafeMethod(req.method)) (multipart ? requireMultipartBody : requireJsonBody)(req);
      const limit = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
      const form = options.body && multipart ? await readMultipart(req, limit) : null;
      const body = options.body ? parseWith(options.body, form ? form.fields : parseJson(await readBody(req, limit))) : undefined;
      const userAgent = req.headers.get('user-agent')?.slice(0, 500) ?? null;
      const ctx = { req, requestId, db, ip, userAgent, params, query, body } as PublicRouteContext<P, Q, B>;
      const res = respond(await handler(ctx), requestId, {});
      // Answers about a secret link are nobody's to keep, unless the handler says otherwise (a PDF with its ETag).
      if (!res.headers.has('cache-control')) res.headers.set('Cache-Control', 'no-store');
      return res;
    } catch (err) {
      return errorResponse(err, requestId, { 'Cache-Control': 'no-store' });
    }
  });
}

/** For routes outside authentication (OpenAPI document, unknown paths): request id and error mapping only. */
export function publicRoute(handler: (req: Request) => Promise<Reply | Response>) {
  return (req: Request): Promise<Response> => observeRequest(req, undefined, async (requestId) => {
    try {
      return respond(await handler(req), requestId, {});
    } catch (err) {
      return errorResponse(err, requestId);
    }
  });
}
