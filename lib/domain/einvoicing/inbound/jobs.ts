import { perOrgSchedule } from '../per-org-schedule';

/**
 * Every 5 minutes, one `einvoicing.inbound.fetch` job per org enrolled with a PA: the flows addressed to it since its
 * cursor (./fetch.ts).
 */
export const {
  job: fetchInboundJob,
  schedule: inboundScheduleJob,
  enqueue: enqueueInboundFetches,
} = perOrgSchedule(
  { job: 'einvoicing.inbound.fetch', schedule: 'einvoicing.inbound.schedule' },
  async () => {
    const { fetchableOrgs, fetchInbound } = await import('./fetch');
    return { orgs: fetchableOrgs, run: fetchInbound };
  },
  { workers: 2 },
);

export const inboundJobs = [inboundScheduleJob, fetchInboundJob];
