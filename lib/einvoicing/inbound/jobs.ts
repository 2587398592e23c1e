import type { Db } from '@/db/client';
import { defineJob, enqueueMany } from '@/lib/jobs';

/* The handlers are loaded when a job runs, as the other modules' are. */

/** One org's received flows, in its own job: a PA down for one org stops no other. */
export const fetchInboundJob = defineJob<{ org_id: string }>({
  name: 'einvoicing.inbound.fetch',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 600,
  workers: 2,
  async handle(data, { db }) {
    const [{ fetchInbound }, { connectorForOrg }] = await Promise.all([import('./fetch'), import('../connector')]);
    await fetchInbound(db, data.org_id, await connectorForOrg(db, data.org_id));
  },
});

/** One fetch job per enrolled org, keyed by org and minute: a second schedule run in the same minute adds none. */
export async function enqueueInboundFetches(db: Db, now = new Date()): Promise<number> {
  const { fetchableOrgs } = await import('./fetch');
  const orgs = await fetchableOrgs(db);
  const minute = now.toISOString().slice(0, 16);
  await enqueueMany(
    db,
    orgs.map((org_id) => ({ def: fetchInboundJob as never, data: { org_id }, singletonKey: `${org_id}:${minute}` })),
  );
  return orgs.length;
}

/** Every 5 minutes: the flows addressed to each enrolled org since its cursor. */
export const inboundScheduleJob = defineJob<Record<string, never>>({
  name: 'einvoicing.inbound.schedule',
  retryLimit: 1,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 300,
  cron: '*/5 * * * *',
  async handle(_data, { db }) {
    await enqueueInboundFetches(db);
  },
});

export const inboundJobs = [inboundScheduleJob, fetchInboundJob];
