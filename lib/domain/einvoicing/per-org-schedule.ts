import type { Db } from '@/db/client';
import { defineJob, enqueueMany } from '@/lib/platform/jobs';
import type { PaConnector } from './port';

/** What is done with each org's PA on the schedule: which orgs, and the work for one. */
export interface PerOrgWork {
  orgs(db: Db): Promise<string[]>;
  run(db: Db, orgId: string, pa: PaConnector): Promise<unknown>;
}

/**
 * Work done with each org's PA every 5 minutes (Europe/Paris), polling the Flow service (1.1.0 has no callbacks): the
 * schedule job lists the orgs and writes one job per org, keyed by org and minute (a second run in the same minute adds
 * none); each runs with the org's connector, so a PA down for one org holds up no other (2 retries, back-off).
 * `load` brings the work in when a job runs, as the other modules' handlers are loaded.
 */
export function perOrgSchedule(names: { job: string; schedule: string }, load: () => Promise<PerOrgWork>, options: { workers?: number } = {}) {
  const job = defineJob<{ org_id: string }>({
    name: names.job,
    retryLimit: 2,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 600,
    ...options,
    async handle(data, { db }) {
      const [work, { connectorForOrg }] = await Promise.all([load(), import('./connector')]);
      await work.run(db, data.org_id, await connectorForOrg(db, data.org_id));
    },
  });

  /** The schedule's fan-out (returns how many orgs). */
  async function enqueue(db: Db, now = new Date()): Promise<number> {
    const orgs = await (await load()).orgs(db);
    const minute = now.toISOString().slice(0, 16);
    await enqueueMany(
      db,
      orgs.map((org_id) => ({ def: job as never, data: { org_id }, singletonKey: `${names.job}:${org_id}:${minute}` })),
    );
    return orgs.length;
  }

  const schedule = defineJob<Record<string, never>>({
    name: names.schedule,
    retryLimit: 1,
    retryDelaySeconds: 60,
    retryBackoff: false,
    expireInSeconds: 300,
    cron: '*/5 * * * *',
    async handle(_data, { db }) {
      await enqueue(db);
    },
  });

  return { job, schedule, enqueue };
}
