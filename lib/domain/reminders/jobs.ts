import { defineJob } from '@/lib/platform/jobs';

/**
 * Every minute: the reminders that have come due. Two overlapping runs share the work (SKIP LOCKED). The
 * dispatcher is loaded when the job runs: it queues e-mails through lib/platform/jobs/queue, which imports the job list.
 */
export const dispatchRemindersJob = defineJob<Record<string, never>>({
  name: 'reminders.dispatch',
  retryLimit: 1,
  retryDelaySeconds: 30,
  retryBackoff: false,
  expireInSeconds: 600,
  cron: '* * * * *',
  async handle(_data, { db }) {
    const { dispatchDueReminders } = await import('./dispatch');
    await dispatchDueReminders(db);
  },
});
