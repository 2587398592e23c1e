import { lt, sql } from 'drizzle-orm';
import { emailWebhookEvents } from '@/db/schema';
import { defineJob } from '@/lib/platform/jobs';
import { MAX_SEND_ATTEMPTS, SEND_RETRY_DELAY_SECONDS } from './config';
import { sendQueuedEmail } from './send';

export const SEND_EMAIL_JOB = 'email.send';

/**
 * Sends one queued e-mail. The job is written with the e-mail, in its transaction (queueEmail). The e-mail's own
 * `attempts` column bounds the attempts (across retries, and jobs expired by a dead worker); pg-boss supplies the
 * exponential back-off between them, and the last attempt ends the e-mail `failed`.
 */
export const sendEmailJob = defineJob<{ email_id: string }>({
  name: SEND_EMAIL_JOB,
  retryLimit: MAX_SEND_ATTEMPTS - 1,
  retryDelaySeconds: SEND_RETRY_DELAY_SECONDS,
  retryBackoff: true,
  expireInSeconds: 120,
  // Three per fetch, sent one after another: even three provider timeouts (3 × 30 s) end within the expiry, which
  // counts from the fetch.
  batchSize: 3,
  sequentialBatch: true,
  async handle(data, { db }) {
    await sendQueuedEmail(db, data.email_id);
  },
});

/** Daily: forgets webhook ids older than 30 days (the provider stops retrying a delivery within days). */
export const purgeEmailWebhookEventsJob = defineJob<Record<string, never>>({
  name: 'email.purge-webhook-events',
  retryLimit: 3,
  retryDelaySeconds: 300,
  retryBackoff: true,
  cron: '41 3 * * *',
  async handle(_data, { db }) {
    await db.delete(emailWebhookEvents).where(lt(emailWebhookEvents.received_at, sql`now() - interval '30 days'`));
  },
});

export const emailJobs = [sendEmailJob, purgeEmailWebhookEventsJob];
