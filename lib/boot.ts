import { getDatabase } from '@/db/client';
import { appBaseUrl } from '@/lib/config';
import { prepareQueues, startWorkers } from '@/lib/jobs';
import { jobs } from '@/lib/modules';
import { formatCredentials, seedDemo } from '@/lib/orgs/seed';

/**
 * Server start: migrate (inside getDatabase), create the job queues (a change writes its jobs in its own
 * transaction, so their queues must exist before the first request), seed the demo on an empty database, start the
 * inline job worker unless WORKER_MODE=off. Called once from instrumentation.ts.
 */
export async function boot() {
  const database = await getDatabase();
  await prepareQueues(database, jobs);
  const demo = await seedDemo(database.db);
  if (demo) console.log(formatCredentials(demo, appBaseUrl()));
  if ((process.env.WORKER_MODE ?? 'inline') !== 'off') {
    await startWorkers(jobs);
    console.log(`[paraphe] database: ${database.kind}; inline job worker started`);
  } else {
    console.log(`[paraphe] database: ${database.kind}; inline job worker off (WORKER_MODE=off)`);
  }
}
