import type http from 'node:http';
import { Readable } from 'node:stream';
import { pinnedConnection } from './connection';
import { type TargetOptions, TargetRefused } from './target';
import { outboundCall } from '@/lib/platform/telemetry';

/*
 * fetch() for calls whose URL a tenant chose (the PA of pdp_config; Chorus Pro next): the target checked after DNS
 * and the socket pinned to the checked address (connection.ts), redirects never followed (a 3xx is answered as it
 * came, for the caller to refuse), one deadline for the whole exchange, the answer bounded. Failures are
 * OutboundError, whose message says what failed and nothing of the remote's network: refused connection, closed port,
 * unreachable host, reset and TLS failure read alike ("could not connect"), so that the error is no port scanner.
 */

export type OutboundFailure = 'refused' | 'timeout' | 'connect' | 'too_large' | 'invalid_response';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** The network error underneath (for a debugger; never put in a message or an answer). */
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
}

export interface OutboundOptions extends TargetOptions {
  timeoutMs: number;
  /** The answer's body is cut (OutboundError too_large) beyond this; 64 MiB by default. */
  maxBodyBytes?: number;
  /** Who is called (`pa`, `webhook`…): the span's and the duration metric's name (lib/platform/telemetry). */
  service?: string;
}

const NULL_BODY = new Set([204, 205, 304]);

/** The body as bytes and the content type fetch would give it (a FormData becomes multipart with its boundary). */
async function encodedBody(body: BodyInit | null | undefined): Promise<{ bytes: Buffer | null; contentType: string | null }> {
  if (body === undefined || body === null) return { bytes: null, contentType: null };
  const encoded = new Response(body);
  return { bytes: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') };
}

function headersOf(res: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return headers;
}

export function outboundFetch(rawUrl: string, init: OutboundInit, options: OutboundOptions): Promise<Response> {
  return outboundCall(options.service ?? 'outbound', init.method ?? 'GET', rawUrl, async (span) => {
    const res = await fetchPinned(rawUrl, init, options);
    span.setAttribute('http.response.status_code', res.status);
    return res;
  });
}

async function fetchPinned(rawUrl: string, init: OutboundInit, options: OutboundOptions): Promise<Response> {
  const { timeoutMs } = options;
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const connection = await pinnedConnection(rawUrl, options).catch((error: unknown) => {
    if (error instanceof TargetRefused) throw new OutboundError('refused', error.reason, error);
    throw error;
  });
  const { bytes, contentType } = await encodedBody(init.body);
  const headers: Record<string, string> = { ...init.headers };
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (contentType && !has('content-type')) headers['content-type'] = contentType;
  if (bytes) headers['content-length'] = String(bytes.length);

  return new Promise<Response>((resolve, reject) => {
    let answered = false;
    let response: http.IncomingMessage | null = null;
    const fail = (error: OutboundError) => {
      clearTimeout(timer);
      if (!answered) reject(error);
      // After the headers, the body stream errors: the caller's read rejects.
      response?.destroy(error);
      req.destroy();
    };
    const timer = setTimeout(() => fail(new OutboundError('timeout', `no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const req = connection.client.request(connection.url, { method: init.method ?? 'GET', headers, agent: connection.agent, lookup: connection.lookup }, (res) => {
      response = res;
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) return fail(new OutboundError('invalid_response', `answered an invalid HTTP status (${status})`));
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBodyBytes) fail(new OutboundError('too_large', `answered more than ${maxBodyBytes} bytes`));
      });
      res.on('close', () => clearTimeout(timer));
      answered = true;
      const empty = NULL_BODY.has(status) || (init.method ?? 'GET').toUpperCase() === 'HEAD';
      if (empty) res.resume();
      resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? '', headers: headersOf(res) }));
    });
    req.on('error', (error) => fail(new OutboundError('connect', 'could not connect', error)));
    req.end(bytes ?? undefined);
  });
}
