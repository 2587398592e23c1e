import { randomUUID } from 'node:crypto';
import { log, withLogContext } from '@/lib/platform/log';
import { SpanStatusCode } from '@opentelemetry/api';
import { inSpan, requestMetrics } from '@/lib/platform/telemetry';

/** An `X-Request-Id` a proxy in front set, kept when it is a plain identifier (else one is made). */
const INBOUND_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path with what varies — ids, and the secrets of public links (a signer's token) — replaced by placeholders: what
 * a span, a metric and a log line name a route by, never the secret itself.
 */
export function routeTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (UUID.test(segment) ? '{id}' : segment.length >= 16 && /^[A-Za-z0-9_-]+$/.test(segment) && /\d/.test(segment) ? '{token}' : segment))
    .join('/');
}

/**
 * What every API request goes through, around the handler wrappers of handler.ts: its request id (the caller's
 * `X-Request-Id` when a proxy set one), carried by every log line written while it runs; a server span named by its
 * route; its duration recorded by route, method and status; one access line (`request`) at info.
 */
export function observeRequest(req: Request, route: string | undefined, serve: (requestId: string) => Promise<Response>): Promise<Response> {
  const inbound = req.headers.get('x-request-id');
  const requestId = inbound && INBOUND_REQUEST_ID.test(inbound) ? inbound : randomUUID();
  const template = route ?? routeTemplate(new URL(req.url).pathname);
  const started = performance.now();
  return withLogContext({ request_id: requestId }, () =>
    inSpan(`${req.method} ${template}`, { kind: 'server', attributes: { 'http.request.method': req.method, 'http.route': template, 'paraphe.request_id': requestId } }, async (span) => {
      const res = await serve(requestId);
      const ms = performance.now() - started;
      span.setAttribute('http.response.status_code', res.status);
      if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      requestMetrics().record(template, req.method, res.status, ms);
      log.info({ method: req.method, route: template, status: res.status, duration_ms: Math.round(ms * 10) / 10 }, 'request');
      return res;
    }),
  );
}
