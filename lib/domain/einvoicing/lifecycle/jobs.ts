import type { BillingDocument } from '@/lib/domain/documents';
import { subscribe } from '@/lib/platform/events';
import { defineJob } from '@/lib/platform/jobs';
import { perOrgSchedule } from '../per-org-schedule';

/* The handlers are loaded when a job runs, as the other modules' are. */

/** Every 5 minutes, one `einvoicing.lifecycle.poll` job per org with transmitted invoices: the statuses since its cursor. */
export const {
  job: pollLifecycleJob,
  schedule: lifecycleScheduleJob,
  enqueue: enqueueLifecyclePolls,
} = perOrgSchedule({ job: 'einvoicing.lifecycle.poll', schedule: 'einvoicing.lifecycle.schedule' }, async () => {
  const { pollableOrgs, pollLifecycle } = await import('./poll');
  return { orgs: pollableOrgs, run: pollLifecycle };
});

export interface EncaisseeJobData {
  org_id: string;
  document_id: string;
}

/** 212 Encaissée of one paid invoice (encaissee.ts): retried while the PA is unreachable, about 2 h in all. */
export const emitEncaisseeJob = defineJob<EncaisseeJobData>({
  name: 'einvoicing.lifecycle.encaissee',
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  async handle(data, { db }) {
    const { emitEncaissee } = await import('./encaissee');
    await emitEncaissee(db, data.org_id, data.document_id);
  },
});

/** An invoice paid in full (lib/domain/payments' invoice.paid) that went through the PA emits 212 once. */
export const encaisseeOnPaid = subscribe<EncaisseeJobData>({
  events: ['invoice.paid'],
  job: emitEncaisseeJob,
  when: (event) => (event.object as BillingDocument).transmission_status === 'sent',
  data: (event) => ({ org_id: event.org_id, document_id: (event.object as { id: string }).id }),
});

export const lifecycleJobs = [lifecycleScheduleJob, pollLifecycleJob, emitEncaisseeJob];
