import { defineJob } from '@/lib/platform/jobs';
import { checkEnrollment, dueEnrollments } from './enrollment';

/**
 * Every minute: each pending enrollment not checked within the last minute is asked of its PA once
 * (checkEnrollment). A PA that is down leaves it pending until the next round; 7 days unconfirmed fail it.
 */
export const checkEnrollmentsJob = defineJob<Record<string, never>>({
  name: 'einvoicing.check-enrollments',
  retryLimit: 2,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 600,
  cron: '* * * * *',
  async handle(_data, { db }) {
    for (const orgId of await dueEnrollments(db)) await checkEnrollment(db, orgId);
  },
});
