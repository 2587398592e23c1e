import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { smsMessages } from '@/db/schema';
import { defineJob } from '@/lib/platform/jobs';
import { smsProvider } from './provider';

export const MAX_SMS_ATTEMPTS = 3;

/**
 * One attempt at handing a queued message to its provider. Idempotent: a message no longer `queued` is left alone.
 * No transaction is open while the provider is called; the last failed attempt ends the message `failed`.
 */
export async function sendQueuedSms(db: Db, smsId: string): Promise<'sent' | 'failed' | 'skipped'> {
  const [sms] = await db
    .update(smsMessages)
    .set({ attempts: sql`${smsMessages.attempts} + 1` })
    .where(and(eq(smsMessages.id, smsId), eq(smsMessages.status, 'queued'), lt(smsMessages.attempts, MAX_SMS_ATTEMPTS)))
    .returning();
  if (!sms) return 'skipped';
  try {
    const { providerId } = await smsProvider(sms.provider ?? '').send({ id: sms.id, to: sms.to, body: sms.body });
    await db.update(smsMessages).set({ status: 'sent', provider_id: providerId, sent_at: new Date(), last_error: null }).where(eq(smsMessages.id, sms.id));
    return 'sent';
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const last = sms.attempts >= MAX_SMS_ATTEMPTS;
    await db
      .update(smsMessages)
      .set({ last_error: message, ...(last ? { status: 'failed' as const } : {}) })
      .where(eq(smsMessages.id, sms.id));
    if (last) return 'failed';
    throw error;
  }
}

/** Sends one queued message (written with it by queueSms); pg-boss retries with back-off, bounded by the row's attempts. */
export const sendSmsJob = defineJob<{ sms_id: string }>({
  name: 'sms.send',
  retryLimit: MAX_SMS_ATTEMPTS - 1,
  retryDelaySeconds: 20,
  retryBackoff: true,
  expireInSeconds: 60,
  async handle(data, { db }) {
    await sendQueuedSms(db, data.sms_id);
  },
});
