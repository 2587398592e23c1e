import { lt, sql } from 'drizzle-orm';
import { emailWebhookEvents } from '@/db/schema';
import { defineJob } from '@/lib/jobs/define';
import { MAX_SEND_ATTEMPTS, SEND_RETRY_DELAY_SECONDS } from './config';
import { sendQueuedEmail } from './send';
import { sweepQueuedEmails } from './sweep';

export const SEND_EMAIL_JOB = 'email.send';

/**
 * Sends one queued e-mail. The e-mail's own `attempts` column bounds the attempts (across duplicate or
 * re-queued jobs); pg-boss supplies the exponential back-off between them.
 */
export const sendEmailJob = defineJob<{ email_id: string }>({
  name: SEND_EMAIL_JOB,
  retryLimit: MAX_SEND_ATTEMPTS - 1,
  retryDelaySeconds: SEND_RETRY_DELAY_SECONDS,
  retryBackoff: true,
  expireInSeconds: 120,
  async handle(data, { db }) {
    await sendQueuedEmail(db, data.email_id);
  },
});

/** Every minute: re-queues the queued e-mails whose job was lost, fails those out of attempts. */
export const sweepEmailsJob = defineJob<Record<string, never>>({
  name: 'email.sweep',
  retryLimit: 1,
  retryDelaySeconds: 30,
  retryBackoff: false,
  cron: '* * * * *',
  async handle(_data, { db }) {
    // lib/jobs/queue imports the job list, which imports this file: load it when the job runs, not before.
    const { getQueue } = await import('@/lib/jobs/queue');
    await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB);
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

export const emailJobs = [sendEmailJob, sweepEmailsJob, purgeEmailWebhookEventsJob];
