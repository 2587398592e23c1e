import { expireQuotesJob } from '@/lib/billing/expire-quotes';
import { emailJobs } from '@/lib/email/jobs';
import { purgeIdempotencyKeys } from '@/lib/http/idempotency';
import { renderDocumentJob, sweepRendersJob } from '@/lib/pdf/jobs';
import { dispatchRemindersJob } from '@/lib/reminders/jobs';
import { defineJob, type JobDefinition } from './define';

export const purgeIdempotencyJob = defineJob<Record<string, never>>({
  name: 'maintenance.purge-idempotency-keys',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  cron: '17 * * * *',
  async handle(_data, { db }) {
    await purgeIdempotencyKeys(db);
  },
});

/** Every job kind the workers serve; a module adds its definitions here. */
export const jobDefinitions: JobDefinition<never>[] = [purgeIdempotencyJob, expireQuotesJob, ...emailJobs, renderDocumentJob, sweepRendersJob, dispatchRemindersJob] as JobDefinition<never>[];
