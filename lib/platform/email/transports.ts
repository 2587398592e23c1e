import { Resend } from 'resend';
import type { EmailTransport as TransportName } from '@/db/schema';
import { PROVIDER_TIMEOUT_MS } from './config';

/** One e-mail ready to leave, whatever carries it. */
export interface OutgoingEmail {
  id: string;
  orgId: string;
  from: string;
  to: string[];
  cc: string[];
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export type SendResult =
  | { ok: true; providerId: string | null }
  /** `retryable`: worth another attempt later (network, 5xx, rate limit); otherwise the provider refused it for good. */
  | { ok: false; error: string; retryable: boolean };

/** The one interface both transports implement. */
export interface EmailTransport {
  name: TransportName;
  send(email: OutgoingEmail): Promise<SendResult>;
}

/** The outbox: nothing leaves; the record itself is the delivered mail, read at /dev/mail. */
export const outboxTransport: EmailTransport = {
  name: 'outbox',
  async send() {
    return { ok: true, providerId: null };
  },
};

/**
 * Resend through its official SDK (which honours RESEND_BASE_URL). The e-mail id is the idempotency key, so a
 * retry or a duplicate job after an ambiguous failure never sends the e-mail twice; it is also a tag, which
 * lets a webhook find its e-mail even before the provider id is recorded.
 */
export function resendTransport(apiKey: string): EmailTransport {
  const client = new Resend(apiKey);
  return {
    name: 'resend',
    async send(email) {
      const { data, error } = await client.emails
        .send(
        {
          from: email.from,
          to: email.to,
          ...(email.cc.length ? { cc: email.cc } : {}),
          ...(email.replyTo ? { replyTo: email.replyTo } : {}),
          subject: email.subject,
          html: email.html,
          text: email.text,
          ...(email.attachments.length
            ? { attachments: email.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })) }
            : {}),
          tags: [
            { name: 'paraphe_email_id', value: email.id },
            { name: 'paraphe_org_id', value: email.orgId },
          ],
        },
          { idempotencyKey: email.id, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) },
        )
        // The SDK answers {data, error} and does not throw; anything that still does is a network-level failure.
        .catch((err: unknown) => ({ data: null, error: { statusCode: null, name: undefined, message: err instanceof Error ? err.message : String(err) } }));
      if (data) return { ok: true, providerId: data.id };
      const status = error?.statusCode ?? null;
      const message = `Resend ${status ?? 'network error'}${error?.name ? ` ${error.name}` : ''}: ${error?.message ?? 'no answer'}`;
      return { ok: false, error: message, retryable: isRetryable(status, error?.name) };
    },
  };
}

/**
 * No answer, a timeout, a rate limit, a server error or a concurrent request on the same idempotency key may
 * succeed later; any other 4xx (validation, bad key, unverified sender, idempotency key reused with another
 * body) will not.
 */
function isRetryable(status: number | null, name: string | undefined): boolean {
  if (status === null || status === 408 || status === 429 || status >= 500) return true;
  return status === 409 && name === 'concurrent_idempotent_requests';
}

/** The transport an e-mail was recorded for; Resend needs RESEND_API_KEY in the process that sends. */
export function transportFor(name: TransportName): EmailTransport | { unavailable: string } {
  if (name === 'outbox') return outboxTransport;
  const key = process.env.RESEND_API_KEY?.trim();
  return key ? resendTransport(key) : { unavailable: 'RESEND_API_KEY is not set in the process that sends e-mails' };
}
