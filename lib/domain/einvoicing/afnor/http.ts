import { createHash, randomUUID } from 'node:crypto';
import type { PdpConfig } from '@/lib/domain/invoice-settings';
import { PaError } from '../port';

/*
 * HTTP to an AFNOR XP Z12-013 PA. Both annexes say: "Each endpoint must be called with an access token (Bearer). This
 * token is retrieved by a call to a token URL." — an OAuth 2.0 client-credentials grant (RFC 6749 §4.4) at
 * pdp_config.token_url (default {base_url}/oauth/token), client authenticated with HTTP Basic (§2.3.1). The token is
 * cached per client until 30 s before it expires, and fetched again once on a 401.
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
}

export const tokenUrlOf = (config: PdpConfig) => config.token_url ?? `${config.base_url}/oauth/token`;

/** A short, safe excerpt of an error body for messages (never the request's credentials). */
async function errorOf(res: Response): Promise<{ code: string | null; text: string }> {
  const raw = (await res.text().catch(() => '')).slice(0, 2000);
  try {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const code = typeof body.errorCode === 'string' ? body.errorCode : typeof body.error === 'string' ? body.error : null;
    const message = [body.errorMessage, body.message, body.details, body.error_description].find((v) => typeof v === 'string') as string | undefined;
    return { code, text: [code, message].filter(Boolean).join(': ').slice(0, 300) };
  } catch {
    return { code: null, text: raw.replace(/\s+/g, ' ').trim().slice(0, 300) };
  }
}

export function paErrorOfStatus(status: number, what: string, detail: { code: string | null; text: string }): PaError {
  const suffix = detail.text ? ` — ${detail.text}` : '';
  if (status === 401 || status === 403) return new PaError('auth', `${what}: the PA refused the credentials (HTTP ${status})${suffix}`, status, detail.code);
  if (status === 404) return new PaError('not_found', `${what}: not found at the PA (HTTP 404)${suffix}`, status, detail.code);
  if (status === 408) return new PaError('timeout', `${what}: the PA timed out (HTTP 408)${suffix}`, status, detail.code);
  if (status === 429) return new PaError('rate_limited', `${what}: too many requests to the PA (HTTP 429)${suffix}`, status, detail.code);
  if (status >= 500) return new PaError('server', `${what}: the PA failed (HTTP ${status})${suffix}`, status, detail.code);
  return new PaError('rejected', `${what}: the PA refused the request (HTTP ${status})${suffix}`, status, detail.code);
}

async function send(url: string, init: RequestInit, timeoutMs: number, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new PaError('timeout', `${what}: no answer from the PA within ${timeoutMs / 1000} s (${new URL(url).host})`);
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new PaError('unreachable', `${what}: the PA cannot be reached at ${new URL(url).host} (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
}

export class AfnorHttp {
  private readonly timeoutMs: number;
  private readonly cacheKey: string;

  constructor(
    private readonly config: PdpConfig,
    options: AfnorHttpOptions = {},
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
    );
    if (!res.ok) throw paErrorOfStatus(res.status === 400 ? 401 : res.status, what, await errorOf(res));
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (!body || typeof body.access_token !== 'string' || !body.access_token) throw new PaError('invalid_response', `${what}: the PA's token answer has no access_token`);
    const lifetime = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    tokens.set(this.cacheKey, { value: body.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 30) * 1000 });
    return body.access_token;
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
      const res = await send(url, { method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body }, this.timeoutMs, what);
      if (res.status === 401 && !fresh) {
        await res.body?.cancel();
        continue;
      }
      if (res.ok || init.expect?.includes(res.status)) return res;
      throw paErrorOfStatus(res.status, what, await errorOf(res));
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
