import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { Webhook } from 'svix';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { type EmailStatus, emails, emailWebhookEvents } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';

/** The part of a Resend e-mail event we use; anything else in it is ignored. */
const ResendEvent = z.object({
  type: z.string(),
  created_at: z.string().optional(),
  data: z
    .object({
      email_id: z.string().optional(),
      created_at: z.string().optional(),
      tags: z.union([z.array(z.object({ name: z.string(), value: z.string() })), z.record(z.string(), z.string())]).optional(),
      bounce: z.object({ message: z.string().optional(), type: z.string().optional(), subType: z.string().optional() }).loose().optional(),
      failed: z.object({ reason: z.string().optional() }).loose().optional(),
    })
    .loose(),
});
type ResendEvent = z.infer<typeof ResendEvent>;

export interface WebhookOutcome {
  received: true;
  /** This delivery id was applied before: acknowledged, nothing changed. */
  duplicate: boolean;
  /** E-mails whose record the event changed. */
  updated: number;
}

/**
 * Resend's delivery webhook: the Svix signature (svix-id, svix-timestamp, svix-signature; secret
 * RESEND_WEBHOOK_SECRET) is checked on the raw body, then the event moves the e-mail's status, once per
 * webhook id (replays are acknowledged and ignored). email.sent → sent, email.delivered → delivered,
 * email.bounced → bounced, email.failed → failed; email.delivery_delayed and other events change nothing.
 */
export async function handleResendWebhook(db: Db, rawBody: string, headers: Headers): Promise<WebhookOutcome> {
  const secret = process.env.RESEND_WEBHOOK_SECRET?.trim();
  if (!secret) throw new ApiError(503, 'webhook_not_configured', 'RESEND_WEBHOOK_SECRET is not set: webhooks cannot be verified.');
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(rawBody, {
      'svix-id': headers.get('svix-id') ?? '',
      'svix-timestamp': headers.get('svix-timestamp') ?? '',
      'svix-signature': headers.get('svix-signature') ?? '',
    });
  } catch {
    throw new ApiError(400, 'invalid_signature', 'The webhook signature does not verify.');
  }
  const parsed = ResendEvent.safeParse(payload);
  if (!parsed.success) throw new ApiError(400, 'invalid_payload', 'The webhook payload is not a Resend event.');
  const event = parsed.data;
  const webhookId = headers.get('svix-id')!;

  return db.transaction(async (tx) => {
    const [fresh] = await tx.insert(emailWebhookEvents).values({ id: webhookId, type: event.type }).onConflictDoNothing().returning();
    if (!fresh) return { received: true, duplicate: true, updated: 0 };
    const change = statusChange(event);
    if (!change) return { received: true, duplicate: false, updated: 0 };
    const target = emailsOf(event);
    if (!target) return { received: true, duplicate: false, updated: 0 };
    const updated = await tx
      .update(emails)
      .set({ status: change.to, ...change.set, ...(event.data.email_id ? { provider_id: sql`coalesce(${emails.provider_id}, ${event.data.email_id})` } : {}) })
      .where(and(target, inArray(emails.status, change.from)))
      .returning({ id: emails.id });
    return { received: true, duplicate: false, updated: updated.length };
  });
}

/** The e-mail an event is about: the provider id we recorded, or our own id in the tag we sent. */
function emailsOf(event: ResendEvent): SQL | undefined {
  const { email_id: providerId, tags } = event.data;
  const ours = Array.isArray(tags) ? tags.find((t) => t.name === 'paraphe_email_id')?.value : tags?.paraphe_email_id;
  const byTag = ours && z.uuid().safeParse(ours).success ? eq(emails.id, ours) : undefined;
  const byProvider = providerId ? eq(emails.provider_id, providerId) : undefined;
  return byTag && byProvider ? or(byTag, byProvider) : (byTag ?? byProvider);
}

const at = (event: ResendEvent) => {
  const when = new Date(event.created_at ?? event.data.created_at ?? Date.now());
  return Number.isNaN(when.getTime()) ? new Date() : when;
};

/**
 * Which statuses an event may move an e-mail from: forward only (a late `email.sent` never undoes a
 * delivery), and the provider's word wins over our own `failed` (a timed-out request that was in fact accepted).
 */
function statusChange(event: ResendEvent): { to: EmailStatus; from: EmailStatus[]; set: PgUpdateSetSource<typeof emails> } | null {
  switch (event.type) {
    case 'email.sent':
      return { to: 'sent', from: ['queued', 'failed'], set: { sent_at: sql`coalesce(${emails.sent_at}, ${at(event).toISOString()}::timestamptz)`, last_error: null } };
    case 'email.delivered':
      return { to: 'delivered', from: ['queued', 'sent', 'failed'], set: { delivered_at: at(event), sent_at: sql`coalesce(${emails.sent_at}, ${at(event).toISOString()}::timestamptz)`, last_error: null } };
    case 'email.bounced': {
      const b = event.data.bounce;
      const detail = [b?.type, b?.subType].filter(Boolean).join('/');
      return { to: 'bounced', from: ['queued', 'sent', 'delivered', 'failed'], set: { last_error: `bounced${detail ? ` (${detail})` : ''}: ${b?.message ?? 'the recipient’s server rejected the e-mail'}` } };
    }
    case 'email.failed':
      return { to: 'failed', from: ['queued', 'sent'], set: { last_error: `Resend could not send it: ${event.data.failed?.reason ?? 'no reason given'}` } };
    default:
      return null;
  }
}
