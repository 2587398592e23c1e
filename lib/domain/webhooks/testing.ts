import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as redeliverRoute from '@/app/v1/webhooks/endpoints/[id]/deliveries/[delivery_id]/redeliver/route';
import * as deliveriesRoute from '@/app/v1/webhooks/endpoints/[id]/deliveries/route';
import * as rotateRoute from '@/app/v1/webhooks/endpoints/[id]/rotate-secret/route';
import * as oneRoute from '@/app/v1/webhooks/endpoints/[id]/route';
import * as testRoute from '@/app/v1/webhooks/endpoints/[id]/test/route';
import * as collectionRoute from '@/app/v1/webhooks/endpoints/route';

/** The webhook route handlers, for tests. */
export const webhookRoutes = {
  list: collectionRoute.GET,
  create: collectionRoute.POST,
  get: oneRoute.GET,
  update: oneRoute.PATCH,
  delete: oneRoute.DELETE,
  rotate: rotateRoute.POST,
  test: testRoute.POST,
  deliveries: deliveriesRoute.GET,
  redeliver: redeliverRoute.POST,
};

/**
 * A verifier written from the Standard Webhooks specification alone (not the package that signs): the signed content
 * is `{id}.{timestamp}.{body}`, the key the base64 after `whsec_`, each `v1,<base64 HMAC-SHA256>` of the
 * space-separated header is a candidate. True when one matches.
 */
export function verifyStandardWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signature.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local receiver: answers each request with the next of `answers` (the last one repeats), records them all. */
export async function startReceiver(answers: Answer[] = [(_req, res) => res.end('ok')], port = 0) {
  const received: Received[] = [];
  const queue = [...answers];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}/hook`,
    received,
    answer(list: Answer[]) {
      queue.splice(0, queue.length, ...list);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const status =
  (code: number, body = '', headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(code, headers);
    res.end(body);
  };
