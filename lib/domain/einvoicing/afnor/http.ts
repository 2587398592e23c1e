import { createHash, randomUUID } from 'node:crypto';
import { einvoicingAllowPrivate } from '@/lib/platform/config';
import { type OutboundInit, OutboundError, outboundFetch, type Resolver } from '@/lib/platform/outbound';
import type { PdpConfig } from '@/lib/domain/invoice-settings';
import { PaError } from '../port';

/*
 * HTTP to an AFNOR XP Z12-013 PA. Both annexes say: "Each endpoint must be called with an access token (Bearer). This
 * token is retrieved by a call to a token URL." — an OAuth 2.0 client-credentials grant (RFC 6749 §4.4) at
 * pdp_config.token_url (default {base_url}/oauth/token), client authenticated with HTTP Basic (§2.3.1). The token is
 * cached per client until 30 s before it expires, and fetched again once on a 401.
 *
 * Every call goes through lib/platform/outbound (docs/security.md, "Outbound calls"): https to public addresses only,
 * checked after DNS at each connection and the socket pinned to the checked address, no redirect followed; under
 * EINVOICING_ALLOW_PRIVATE http and private addresses too.
 */

export const TOKEN_TIMEOUT_MS = 10_000;
export const CALL_TIMEOUT_MS = 30_000;
/** Services under base_url, as the annexes' server URLs name them. */
export const SERVICE_PATHS = { flow: '/flow-service', directory: '/directory-service' } as const;
export type Service = keyof typeof SERVICE_PATHS;

interface CachedToken {
  value: string;
  expiresAt: number;
}
const tokens = new Map<string, CachedToken>();

export interface AfnorHttpOptions {
  /** Per-call timeout (ms); the token request has its own, TOKEN_TIMEOUT_MS. */
  timeoutMs?: number;
  /** EINVOICING_ALLOW_PRIVATE by default. */
  allowPrivate?: boolean;
  /** The system's resolver by default (tests inject theirs). */
  resolve?: Resolver;
}

export const tokenUrlOf = (config: PdpConfig) => config.token_url ?? `${config.base_url}/oauth/token`;

/** An errorCode as the annexes give them (SIREN_NOT_ELIGIBLE, invalid_client): a short token, nothing else. */
const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * The PA's errorCode (or OAuth `error`), when its answer is JSON with a token there; null otherwise. The rest of the
 * body — free text the remote chose — never reaches a message: an error that echoed it would let whoever sets
 * pdp_config read what a server answers to this one.
 */
async function errorCodeOf(res: Response): Promise<string | null> {
  const raw = (await res.text().catch(() => '')).slice(0, 4000);
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const code = [body.errorCode, body.error].find((v) => typeof v === 'string');
    return typeof code === 'string' && ERROR_CODE.test(code) ? code : null;
  } catch {
    return null;
  }
}

export function paErrorOfStatus(status: number, what: string, code: string | null): PaError {
  const suffix = code ? `, errorCode ${code}` : '';
  if (status === 401 || status === 403) return new PaError('auth', `${what}: the PA refused the credentials (HTTP ${status}${suffix})`, status, code);
  if (status >= 300 && status < 400) return new PaError('rejected', `${what}: the PA answered a redirect (HTTP ${status}), which is not followed: check pdp_config`, status, code);
  if (status === 404) return new PaError('not_found', `${what}: not found at the PA (HTTP 404${suffix})`, status, code);
  if (status === 408) return new PaError('timeout', `${what}: the PA timed out (HTTP 408${suffix})`, status, code);
  if (status === 429) return new PaError('rate_limited', `${what}: too many requests to the PA (HTTP 429${suffix})`, status, code);
  if (status >= 500) return new PaError('server', `${what}: the PA answered HTTP ${status}${suffix}`, status, code);
  return new PaError('rejected', `${what}: the PA refused the request (HTTP ${status}${suffix})`, status, code);
}

/**
 * One exchange. A refused connection, a closed port, an unreachable host, a reset or a TLS failure all read "could
 * not connect" (the platform's OutboundError says no more): the PA's address is public, but a message that told them
 * apart would still map whatever network EINVOICING_ALLOW_PRIVATE opens. A timeout stays apart (retried the same way,
 * and what staff need to know). A refused address says why: it is the org's own host name and what it resolves to.
 */
async function send(url: string, init: OutboundInit, timeoutMs: number, what: string, options: AfnorHttpOptions): Promise<Response> {
  const host = new URL(url).host;
  try {
    return await outboundFetch(url, init, { timeoutMs, allowPrivate: options.allowPrivate ?? einvoicingAllowPrivate(), resolve: options.resolve, service: 'pa' });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    if (error.kind === 'timeout') throw new PaError('timeout', `${what}: no answer from the PA within ${timeoutMs / 1000} s (${host})`);
    if (error.kind === 'refused') throw new PaError('unreachable', `${what}: the PA's address is refused (${host}: ${error.message})`);
    if (error.kind === 'connect') throw new PaError('unreachable', `${what}: could not connect to the PA at ${host}`);
    throw new PaError('invalid_response', `${what}: the PA ${error.message} (${host})`);
  }
}

export class AfnorHttp {
  private readonly timeoutMs: number;
  private readonly cacheKey: string;

  constructor(
    private readonly config: PdpConfig,
    private readonly options: AfnorHttpOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    this.cacheKey = createHash('sha256').update(`${tokenUrlOf(config)}\n${config.client_id}\n${config.client_secret}`).digest('hex');
  }

  private async token(fresh: boolean): Promise<string> {
    const cached = tokens.get(this.cacheKey);
    if (!fresh && cached && cached.expiresAt > Date.now()) return cached.value;
    const what = 'OAuth token';
    const basic = Buffer.from(`${encodeURIComponent(this.config.client_id)}:${encodeURIComponent(this.config.client_secret)}`).toString('base64');
    const res = await send(
      tokenUrlOf(this.config),
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: 'grant_type=client_credentials',
      },
      TOKEN_TIMEOUT_MS,
      what,
      this.options,
    );
    if (!res.ok) throw paErrorOfStatus(res.status === 400 ? 401 : res.status, what, await errorCodeOf(res));
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (!body || typeof body.access_token !== 'string' || !body.access_token) throw new PaError('invalid_response', `${what}: the PA's token answer has no access_token`);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    tokens.set(this.cacheKey, { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 30) * 1000 });
    return body.access_token;
  }

  /** A fresh token, for the connection test: the credentials checked on their own. */
  async checkToken(): Promise<void> {
    await this.token(true);
  }

  /**
   * One call to a service. Non-2xx answers become PaError (401 once retried with a new token); `expect` lists the
   * statuses that are not errors (404 for a lookup).
   */
  async call(service: Service, method: string, path: string, what: string, init: { json?: unknown; body?: BodyInit; accept?: string; expect?: number[] } = {}): Promise<Response> {
    const url = `${this.config.base_url}${SERVICE_PATHS[service]}${path}`;
    for (const fresh of [false, true]) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await this.token(fresh)}`,
        accept: init.accept ?? 'application/json',
        'x-request-id': randomUUID(),
      };
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const res = await send(url, { method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body }, this.timeoutMs, what, this.options);
      if (res.status === 401 && !fresh) {
        await res.body?.cancel();
        continue;
      }
      if (res.ok || init.expect?.includes(res.status)) return res;
      throw paErrorOfStatus(res.status, what, await errorCodeOf(res));
    }
    throw new PaError('auth', `${what}: the PA refused a fresh token (HTTP 401)`, 401);
  }

  async json<T>(res: Response, what: string): Promise<T> {
    try {
      return (await res.json()) as T;
    } catch {
      throw new PaError('invalid_response', `${what}: the PA's answer is not JSON (HTTP ${res.status})`, res.status);
    }
  }
}

/** Forget cached tokens (tests that change credentials at the PA). */
export function forgetTokens() {
  tokens.clear();
}
