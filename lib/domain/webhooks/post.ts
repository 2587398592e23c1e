import type http from 'node:http';
import { type PinnedConnection, pinnedConnection, type Resolver, TargetRefused } from '@/lib/platform/outbound';

export const RESPONSE_BODY_LIMIT = 1024;

export interface PostOptions {
  timeoutMs: number;
  /** WEBHOOKS_ALLOW_PRIVATE, read by the caller. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

export type PostResult =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: string; durationMs: number }
  | { kind: 'error'; error: string; durationMs: number };

/** The first 1 KB of a body as text the database takes (no NUL, no half of a surrogate pair cut at 1 KB). */
function logged(bytes: Buffer): string {
  const text = bytes.toString('utf8').slice(0, RESPONSE_BODY_LIMIT).replaceAll('\0', '');
  return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
}

/**
 * POSTs a delivery, once: the target is checked after DNS resolution and the socket connects to that very address
 * (lib/platform/outbound pinnedConnection, so no second resolution can rebind the name). Redirects are not followed
 * (node's client never does); a response is read up to 1 KB; the whole exchange is bounded by `timeoutMs`.
 */
export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let connection: PinnedConnection;
  try {
    connection = await pinnedConnection(rawUrl, options);
  } catch (error) {
    return { kind: 'error', error: error instanceof TargetRefused ? `refused: ${error.reason}` : String(error), durationMs: elapsed() };
  }
  const { url, agent, lookup, client } = connection;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup,
        agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'Paraphe-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, body: logged(Buffer.concat(chunks)), durationMs: elapsed() });
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
          // Only the first 1 KB is kept: a receiver streaming more cannot hold the worker (its socket is not reused).
          if (size >= RESPONSE_BODY_LIMIT) {
            done();
            res.destroy();
          }
        });
        // Read to its end, the socket goes back to the agent for the next delivery.
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
