import { defineJob } from '@/lib/platform/jobs';

/*
 * The envelope lifecycle's periodic jobs. Their work is loaded when they run (as reminders.dispatch does): it queues
 * e-mails and events, whose modules the job list must not import at load time.
 */

/** Every 15 minutes: the automatic reminders due (their cadence is counted in hours). */
export const signatureRemindersJob = defineJob<Record<string, never>>({
  name: 'signature.reminders',
  retryLimit: 1,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 600,
  cron: '*/15 * * * *',
  async handle(_data, { db }) {
    const { sendDueSignatureReminders } = await import('./reminders');
    await sendDueSignatureReminders(db);
  },
});

/** Every 5 minutes: the envelopes past their expiry become expired (their links already refuse: token_expires_at). */
export const signatureExpiryJob = defineJob<Record<string, never>>({
  name: 'signature.expiry',
  retryLimit: 1,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 600,
  cron: '*/5 * * * *',
  async handle(_data, { db }) {
    const { expireDueEnvelopes } = await import('./expiry');
    await expireDueEnvelopes(db);
  },
});

export const signatureLifecycleJobs = [signatureRemindersJob, signatureExpiryJob];
