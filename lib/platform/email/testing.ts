import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emailAttachments, emails } from '@/db/schema';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect the JSON the SDK sent freely
  body: any;
}

/**
 * A local stand-in for the Resend API (POST /emails), reached by the real SDK through RESEND_BASE_URL. It
 * answers like Resend: `{id}` on success, `{statusCode, name, message}` on error, and the same `{id}` again for
 * a repeated Idempotency-Key. `failNext` queues error answers for the next calls.
 */
export async function startFakeResend() {
  const requests: FakeRequest[] = [];
  /** Ids answered to accepted e-mails, in order. */
  const accepted: string[] = [];
  const failures: Array<{ status: number; name: string; message: string }> = [];
  const byIdempotencyKey = new Map<string, string>();
  let loseAnswers = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null;
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/emails') return reply(404, { statusCode: 404, name: 'not_found', message: 'Not found' });
      if (req.headers.authorization !== 'Bearer re_test_key') return reply(401, { statusCode: 401, name: 'missing_api_key', message: 'Missing API key' });
      const failure = failures.shift();
      if (failure) return reply(failure.status, { statusCode: failure.status, name: failure.name, message: failure.message });
      const key = req.headers['idempotency-key'] as string | undefined;
      const id = (key && byIdempotencyKey.get(key)) || randomUUID();
      if (key) byIdempotencyKey.set(key, id);
      accepted.push(id);
      if (loseAnswers > 0) {
        loseAnswers--;
        return req.socket.destroy();
      }
      reply(200, { id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    accepted,
    /** The next `times` calls answer this error. */
    failNext(times: number, status: number, name = status >= 500 ? 'internal_server_error' : 'validation_error', message = `fake ${status}`) {
      for (let i = 0; i < times; i++) failures.push({ status, name, message });
    },
    /** The next `times` accepted e-mails get no answer (the connection drops): an ambiguous failure. */
    loseNextAnswer(times = 1) {
      loseAnswers += times;
    },
    reset() {
      loseAnswers = 0;
      requests.length = 0;
      accepted.length = 0;
      failures.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeResend = Awaited<ReturnType<typeof startFakeResend>>;

/** Points the real SDK at the fake server (RESEND_BASE_URL) with the key it expects; returns the undo. */
export function useResend(fake: FakeResend): () => void {
  const saved = { key: process.env.RESEND_API_KEY, url: process.env.RESEND_BASE_URL };
  process.env.RESEND_API_KEY = 're_test_key';
  process.env.RESEND_BASE_URL = fake.url;
  return () => {
    for (const [name, value] of [
      ['RESEND_API_KEY', saved.key],
      ['RESEND_BASE_URL', saved.url],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

export async function emailRow(db: Db, id: string) {
  const [row] = await db.select().from(emails).where(eq(emails.id, id));
  return row!;
}

export async function attachmentRows(db: Db, id: string) {
  return db.select().from(emailAttachments).where(eq(emailAttachments.email_id, id));
}

/** Document-sent data for an invoice, overridable. */
export function invoiceData(overrides: Record<string, unknown> = {}) {
  return {
    seller_name: 'Atelier Lumière',
    recipient_name: 'Jeanne Martin',
    document_type: 'facture' as const,
    document_number: 'F-2026-00012',
    amount_cents: 123456,
    due_date: '2026-03-12',
    ...overrides,
  };
}
