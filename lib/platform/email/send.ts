import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emailAttachments, emails } from '@/db/schema';
import { MAX_SEND_ATTEMPTS } from './config';
import { type SendResult, transportFor } from './transports';
import { countEmail, inSpan } from '@/lib/platform/telemetry';

export type SendOutcome = 'sent' | 'failed' | 'skipped';

/** A failure worth another attempt: thrown so that pg-boss retries the job with its back-off. */
export class EmailRetryError extends Error {
  constructor(
    readonly emailId: string,
    readonly attempt: number,
    message: string,
  ) {
    super(`e-mail ${emailId}, attempt ${attempt}/${MAX_SEND_ATTEMPTS}: ${message}`);
    this.name = 'EmailRetryError';
  }
}

/**
 * One send attempt of a queued e-mail (the `email.send` job). Idempotent: an e-mail whose status is no longer
 * `queued` is left alone, and Resend receives the e-mail id as its idempotency key, so a duplicate job or a
 * retry after an ambiguous failure never sends twice. Outcomes:
 * - accepted → `sent` (provider id and `sent_at` recorded; the attachment bytes are dropped);
 * - refused for good, or failed at the last attempt → `failed` with `last_error` (the record stays);
 * - failed but worth retrying → `last_error` recorded, `EmailRetryError` thrown for pg-boss to retry.
 * No transaction stays open while the provider is called.
 */
export async function sendQueuedEmail(db: Db, emailId: string): Promise<SendOutcome> {
  const [email] = await db
    .update(emails)
    .set({ attempts: sql`${emails.attempts} + 1` })
    .where(and(eq(emails.id, emailId), eq(emails.status, 'queued'), lt(emails.attempts, MAX_SEND_ATTEMPTS)))
    .returning();
  if (!email) {
    // Either not queued any more (sent, failed, or updated by a webhook), or every attempt was spent by jobs
    // that died before recording their outcome: the record ends failed instead of waiting forever.
    const [gaveUp] = await db
      .update(emails)
      .set({ status: 'failed', last_error: sql`coalesce(${emails.last_error}, ${`gave up after ${MAX_SEND_ATTEMPTS} attempts`})` })
      .where(and(eq(emails.id, emailId), eq(emails.status, 'queued'), gte(emails.attempts, MAX_SEND_ATTEMPTS)))
      .returning({ id: emails.id });
    return gaveUp ? 'failed' : 'skipped';
  }

  const result = await inSpan(`send e-mail (${email.transport})`, { kind: 'client', attributes: { 'paraphe.service': email.transport, 'paraphe.email.attempt': email.attempts } }, () => attempt(db, email));
  countEmail(result.ok ? 'sent' : 'failed', email.transport);

  if (result.ok) {
    await db.transaction(async (tx) => {
      // A webhook may have got there first (delivered, bounced): the status only moves forward from queued.
      await tx
        .update(emails)
        .set({
          status: sql`CASE WHEN ${emails.status} IN ('queued', 'failed') THEN 'sent' ELSE ${emails.status} END`,
          provider_id: sql`coalesce(${emails.provider_id}, ${result.providerId})`,
          sent_at: sql`coalesce(${emails.sent_at}, now())`,
          last_error: null,
        })
        .where(eq(emails.id, email.id));
      await tx.delete(emailAttachments).where(eq(emailAttachments.email_id, email.id));
    });
    return 'sent';
  }

  if (!result.retryable || email.attempts >= MAX_SEND_ATTEMPTS) {
    await db
      .update(emails)
      .set({ status: 'failed', last_error: result.error })
      .where(and(eq(emails.id, email.id), eq(emails.status, 'queued')));
    return 'failed';
  }
  await db.update(emails).set({ last_error: result.error }).where(eq(emails.id, email.id));
  throw new EmailRetryError(email.id, email.attempts, result.error);
}

/** Hands the e-mail to its transport, with the attachments' bytes when it carries them (Resend). */
async function attempt(db: Db, email: typeof emails.$inferSelect): Promise<SendResult> {
  const transport = transportFor(email.transport);
  if ('unavailable' in transport) return { ok: false, error: transport.unavailable, retryable: true };
  const attachments = transport.name === 'resend' ? await loadAttachments(db, email) : [];
  if (transport.name === 'resend' && attachments.length !== email.attachments.length) {
    return { ok: false, error: `${email.attachments.length - attachments.length} attachment(s) lost their content`, retryable: false };
  }
  return transport.send({
    id: email.id,
    orgId: email.org_id,
    from: email.from,
    to: email.to,
    cc: email.cc,
    replyTo: email.reply_to,
    subject: email.subject,
    html: email.html,
    text: email.text,
    attachments,
  });
}

async function loadAttachments(db: Db, email: typeof emails.$inferSelect) {
  if (email.attachments.length === 0) return [];
  const rows = await db.select().from(emailAttachments).where(eq(emailAttachments.email_id, email.id)).orderBy(asc(emailAttachments.position));
  return rows.flatMap((row) => {
    const meta = email.attachments[row.position];
    return meta ? [{ filename: meta.filename, contentType: meta.content_type, content: row.content }] : [];
  });
}
