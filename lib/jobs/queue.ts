import PgBoss from 'pg-boss';
import { type Database, getDatabase } from '@/db/client';
import type { JobDefinition } from './define';
import { jobDefinitions } from './definitions';

/**
 * pg-boss, wired once per process. On PostgreSQL it has its own pool; on PGlite it shares the single
 * connection through an adapter (the only way: PGlite is one connection in this process).
 */
const key = Symbol.for('paraphe.pgboss');
type G = typeof globalThis & { [key]?: Promise<PgBoss>; [k: symbol]: unknown };

async function startBoss(database: Database): Promise<PgBoss> {
  const common = { schedule: true, supervise: true, migrate: true, archiveCompletedAfterSeconds: 3600 } as const;
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ ...common, connectionString: process.env.DATABASE_URL, max: 4 })
      : new PgBoss({ ...common, db: { executeSql: (text, values) => database.sql(text, values) } });
  boss.on('error', (err) => console.error('[jobs]', err));
  await boss.start();
  for (const def of jobDefinitions) {
    await boss.createQueue(def.name, {
      name: def.name,
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: def.retryBackoff,
      ...(def.expireInSeconds ? { expireInSeconds: def.expireInSeconds } : {}),
    });
  }
  return boss;
}

export function getQueue(): Promise<PgBoss> {
  const g = globalThis as G;
  g[key] ??= getDatabase()
    .then(startBoss)
    .catch((err) => {
      g[key] = undefined;
      throw err;
    });
  return g[key];
}

/** Queues a job; returns its id. */
export async function enqueue<T extends object>(def: JobDefinition<T>, data: T, options: PgBoss.SendOptions = {}) {
  const boss = await getQueue();
  return boss.send(def.name, data, options);
}

/** Starts the handlers of every job kind in this process (inline in the server, or `npm run worker`). */
export async function startWorkers(definitions: JobDefinition<never>[] = jobDefinitions) {
  const boss = await getQueue();
  const { db } = await getDatabase();
  for (const def of definitions) {
    let workerId: string | undefined;
    workerId = await boss.work<never>(def.name, { pollingIntervalSeconds: 1, includeMetadata: true }, async ([job]) => {
      if (!job) return;
      try {
        await def.handle(job.data, { db, jobId: job.id, attempt: job.retryCount + 1 });
      } finally {
        // pg-boss 10 waits out the polling interval after every fetch, i.e. one job per second per worker. A job
        // was there, so more may be: fetch again at once. An empty fetch still waits.
        if (workerId) boss.notifyWorker(workerId);
      }
    });
    if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'Europe/Paris' });
  }
}

export async function stopQueue() {
  const g = globalThis as G;
  const pending = g[key];
  g[key] = undefined;
  if (pending) await (await pending).stop({ graceful: true, wait: true, timeout: 10_000 });
}
