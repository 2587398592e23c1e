import type { Db } from '@/db/client';
import type { BillingDocument } from '@/lib/documents';
import { subscribe } from '@/lib/events';
import { defineJob, enqueueMany } from '@/lib/jobs';

/* The handlers are loaded when a job runs, as the other modules' are. */

/** One org's lifecycle statuses, in its own job: a PA down for one org holds up no other. */
export const pollLifecycleJob = defineJob<{ org_id: string }>({
  name: 'einvoicing.lifecycle.poll',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  async handle(data, { db }) {
    const [{ pollLifecycle }, { connectorForOrg }] = await Promise.all([import('./poll'), import('../connector')]);
    await pollLifecycle(db, data.org_id, await connectorForOrg(db, data.org_id));
  },
});

/** One poll job per org with transmitted invoices, keyed by org and minute: a second run in the same minute adds none. */
export async function enqueueLifecyclePolls(db: Db, now = new Date()): Promise<number> {
  const { pollableOrgs } = await import('./poll');
  const orgs = await pollableOrgs(db);
  const minute = now.toISOString().slice(0, 16);
  await enqueueMany(
    db,
    orgs.map((org_id) => ({ def: pollLifecycleJob as never, data: { org_id }, singletonKey: `lifecycle:${org_id}:${minute}` })),
  );
  return orgs.length;
}

/** Every 5 minutes: the statuses the PA reported since each org's cursor (the Flow service 1.1.0 has no callbacks). */
export const lifecycleScheduleJob = defineJob<Record<string, never>>({
  name: 'einvoicing.lifecycle.schedule',
  retryLimit: 1,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 300,
  cron: '*/5 * * * *',
  async handle(_data, { db }) {
    await enqueueLifecyclePolls(db);
  },
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

/** An invoice paid in full (lib/payments' invoice.paid) that went through the PA emits 212 once. */
export const encaisseeOnPaid = subscribe<EncaisseeJobData>({
  events: ['invoice.paid'],
  job: emitEncaisseeJob,
  when: (event) => (event.object as BillingDocument).transmission_status === 'sent',
  data: (event) => ({ org_id: event.org_id, document_id: (event.object as { id: string }).id }),
});

export const lifecycleJobs = [lifecycleScheduleJob, pollLifecycleJob, emitEncaisseeJob];
