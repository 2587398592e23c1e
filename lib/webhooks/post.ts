import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Resolver, resolveTarget, TargetRefused } from './ssrf';

export const RESPONSE_BODY_LIMIT = 1024;

export interface PostOptions {
  timeoutMs: number;
  allowPrivate?: boolean;
  resolve?: Resolver;
}

export type PostResult =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: string; durationMs: number }
  | { kind: 'error'; error: string; durationMs: number };

/**
 * POSTs a delivery, once: the target is checked after DNS resolution and the socket connects to that very address
 * (the request's `lookup` answers with it, so no second resolution can rebind the name). Redirects are not followed
 * (node's client never does); a response is read up to 1 KB; the whole exchange is bounded by `timeoutMs`.
 */
export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  let lookup: LookupFunction;
  try {
    const resolved = await resolveTarget(rawUrl, options);
    url = resolved.url;
    const { address, family } = resolved.target;
    lookup = (_host, opts, callback) => {
      if ((opts as { all?: boolean }).all) (callback as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    };
  } catch (error) {
    return { kind: 'error', error: error instanceof TargetRefused ? `refused: ${error.reason}` : String(error), durationMs: elapsed() };
  }

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: { 'content-type': 'application/json', 'user-agent': 'Paraphe-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT), durationMs: elapsed() });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
          // Only the first 1 KB is kept: a receiver streaming more cannot hold the worker.
          if (size >= RESPONSE_BODY_LIMIT) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'error', error: `timeout after ${options.timeoutMs} ms`, durationMs: elapsed() });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => finish({ kind: 'error', error: error.message, durationMs: elapsed() }));
    req.end(body);
  });
}
