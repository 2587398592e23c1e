import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { type SQL, sql } from 'drizzle-orm';
import { type Database, type Db, getDatabase } from '@/db/client';
import type { JobDefinition } from './define';
import { observeBatch, observeJob } from './observe';
import { log } from '@/lib/platform/log';
import { observeQueueDepth } from '@/lib/platform/telemetry';

/**
 * pg-boss, wired once per process. On PostgreSQL it has its own pool; on PGlite it shares the single
 * connection through an adapter (the only way: PGlite is one connection in this process).
 */
const key = Symbol.for('paraphe.pgboss');
type G = typeof globalThis & { [key]?: Promise<PgBoss>; [k: symbol]: unknown };

/**
 * How often pg-boss's maintenance runs (once per interval across all processes). It is what fails a job whose worker
 * died once its expiry has passed, so it bounds how late that job's retry starts: a render's is within a minute
 * (lib/domain/pdf/jobs.ts). pg-boss's default is 120 s. A run is skipped when the previous one, timed by another tick, is
 * not quite an interval old, so two intervals can pass between runs (measured: up to 16 s at 10 s).
 */
export const MAINTENANCE_INTERVAL_SECONDS = 5;

/** How often an idle worker of a cron kind looks for its job (other kinds: every second, and at once after a job). */
const CRON_POLLING_SECONDS = 10;

function newBoss(database: Database, options: Partial<PgBoss.ConstructorOptions> = {}): PgBoss {
  const common = {
    schedule: true,
    supervise: true,
    migrate: true,
    archiveCompletedAfterSeconds: 3600,
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
    ...options,
  } as const;
  return database.kind === 'postgres'
    ? new PgBoss({ ...common, connectionString: process.env.DATABASE_URL, max: 4 })
    : new PgBoss({ ...common, db: { executeSql: (text, values) => database.sql(text, values) } });
}

async function createQueues(boss: PgBoss, definitions: readonly JobDefinition<never>[]) {
  for (const def of definitions) {
    const policy = {
      name: def.name,
      retryLimit: def.retryLimit,
      retryDelay: def.retryDelaySeconds,
      retryBackoff: def.retryBackoff,
      ...(def.expireInSeconds ? { expireInSeconds: def.expireInSeconds } : {}),
    };
    await boss.createQueue(def.name, policy);
    // createQueue leaves an existing queue as it is: a definition changed since (a shorter expiry) applies to the
    // jobs written from now on only through this.
    await boss.updateQueue(def.name, policy);
  }
}

/** The process's pg-boss, started (schema migrated, maintenance and cron running). */
export function getQueue(): Promise<PgBoss> {
  const g = globalThis as G;
  g[key] ??= getDatabase()
    .then(async (database) => {
      const boss = newBoss(database);
      trackRunningJobs(boss);
      boss.on('error', (err) => log.error(err, 'pg-boss error'));
      await boss.start();
      return boss;
    })
    .catch((err) => {
      g[key] = undefined;
      throw err;
    });
  return g[key];
}

/**
 * Creates pg-boss's schema and one queue per job kind, then lets go. A job can only be written into a queue that
 * exists, so this runs before anything enqueues: at server start (boot), in a worker, and on the test template.
 */
export async function prepareQueues(database: Database, definitions: readonly JobDefinition<never>[]) {
  const boss = newBoss(database, { schedule: false, supervise: false });
  await boss.start();
  try {
    await createQueues(boss, definitions);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/** pg-boss's `$1`-style statement as a Drizzle query, so it runs on the caller's transaction (both engines). */
function asQuery(text: string, values: unknown[] = []): SQL {
  const query = sql.empty();
  text.split(/\$(\d+)/).forEach((part, i) => {
    query.append(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`);
  });
  return query;
}

/** Never started: it only builds pg-boss's insert statement, which runs on the executor each call passes. */
let writer: PgBoss | undefined;
function jobWriter(): PgBoss {
  writer ??= new PgBoss({
    db: {
      executeSql: () => {
        throw new Error('the job writer runs statements on the caller transaction only');
      },
    },
  });
  return writer;
}

export interface JobRequest {
  def: JobDefinition<never>;
  data: object;
  /** Fixed by the caller when it must know the job (an e-mail row keeps its job's id). */
  id?: string;
  /** ISO timestamp or seconds from now. */
  startAfter?: string | number;
  singletonKey?: string;
}

/**
 * Writes jobs in the caller's transaction, in one statement: they exist exactly when the change that asked for them
 * commits, and never for one that rolled back. A worker may pick them up as soon as the commit is visible.
 */
export async function enqueueMany(tx: Db, jobs: readonly JobRequest[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  const executor = {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = (await tx.execute(asQuery(text, values))) as unknown as { rows: Array<Record<string, unknown>> };
      return { rows: result.rows };
    },
  };
  const ids = jobs.map((job) => job.id ?? randomUUID());
  await jobWriter().insert(
    jobs.map((job, i) => ({
      id: ids[i],
      name: job.def.name,
      data: job.data,
      ...(job.startAfter !== undefined ? { startAfter: job.startAfter as never } : {}),
      ...(job.singletonKey ? { singletonKey: job.singletonKey } : {}),
    })),
    { db: executor },
  );
  return ids;
}

/**
 * Whether a job of this kind whose data contains `match` (JSON containment) is waiting, due for a retry, or running
 * within its expiry — i.e. will still run or finish. A job active past its expiry is not: its worker died or hung,
 * and only pg-boss's next maintenance would notice. Run it in the caller's transaction, after locking what the
 * job is about, so that two callers do not both find none and both enqueue.
 */
export async function hasLiveJob<T extends object>(tx: Db, def: JobDefinition<T>, match: Partial<T>): Promise<boolean> {
  const result = (await tx.execute(sql`
    select 1 from pgboss.job
    where name = ${def.name} and data @> ${JSON.stringify(match)}::jsonb
      and (state in ('created', 'retry') or (state = 'active' and started_on + expire_in > now()))
    limit 1
  `)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** Writes one job in the caller's transaction (see enqueueMany); returns its id. */
export async function enqueue<T extends object>(tx: Db, def: JobDefinition<T>, data: T, options: Omit<JobRequest, 'def' | 'data'> = {}): Promise<string> {
  const [id] = await enqueueMany(tx, [{ def: def as JobDefinition<never>, data, ...options }]);
  return id!;
}

/**
 * One fetched batch: the jobs run concurrently (one after another with `sequentialBatch`, or through `handleBatch`),
 * each one that failed is failed alone, so pg-boss retries it per its policy, and pg-boss completes the others when
 * this returns.
 */
async function runBatch(boss: PgBoss, def: JobDefinition<never>, db: Db, jobs: readonly PgBoss.JobWithMetadata<never>[]) {
  const items = jobs.map((job) => ({ data: job.data, jobId: job.id, attempt: job.retryCount + 1 }));
  const run = (item: (typeof items)[number]) => observeJob(def.name, item.jobId, item.attempt, () => def.handle(item.data, { db, jobId: item.jobId, attempt: item.attempt }));
  let errors: readonly unknown[];
  if (def.handleBatch) errors = await observeBatch(def.name, items.map((item) => item.jobId), () => def.handleBatch!(items, { db }));
  else if (def.sequentialBatch) {
    const failed: unknown[] = [];
    for (const item of items) failed.push(await run(item).then(() => null, (err: unknown) => err));
    errors = failed;
  } else errors = (await Promise.allSettled(items.map(run))).map((r) => (r.status === 'rejected' ? r.reason : null));
  await Promise.all(
    jobs.flatMap((job, i) => {
      const error = errors[i];
      if (error === null || error === undefined) return [];
      return [boss.fail(def.name, job.id, { message: error instanceof Error ? error.message : String(error) })];
    }),
  );
}

const startedKey = Symbol.for('paraphe.pgboss.workers-started');

/** Starts the handlers of these job kinds in this process (inline in the server, or `npm run worker`). */
export async function startWorkers(definitions: readonly JobDefinition<never>[]) {
  const boss = await getQueue();
  await createQueues(boss, definitions);
  const { db } = await getDatabase();
  for (const def of definitions) {
    const batchSize = def.batchSize ?? 1;
    // A cron kind's jobs come at most once a minute: polling its queue every 10 s rather than every second spares
    // PostgreSQL a dozen idle fetches a second per process.
    const pollingIntervalSeconds = def.cron ? CRON_POLLING_SECONDS : 1;
    // pg-boss 10 has no per-worker concurrency: each worker runs one fetch at a time, so `workers` registers several.
    for (let i = 0; i < (def.workers ?? 1); i++) {
      let workerId: string | undefined;
      workerId = await boss.work<never>(def.name, { pollingIntervalSeconds, includeMetadata: true, batchSize }, async (jobs) => {
        if (jobs.length === 0) return;
        try {
          if (batchSize > 1) await runBatch(boss, def, db, jobs);
          else {
            const job = jobs[0]!;
            await observeJob(def.name, job.id, job.retryCount + 1, () => def.handle(job.data, { db, jobId: job.id, attempt: job.retryCount + 1 }));
          }
        } finally {
          // pg-boss 10 waits out the polling interval after every fetch, i.e. one job per second per worker. A job
          // was there, so more may be: fetch again at once. An empty fetch still waits.
          if (workerId) boss.notifyWorker(workerId);
        }
      });
    }
    if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: 'Europe/Paris' });
  }
  if (!(globalThis as G)[startedKey]) observeQueueDepth(() => waitingJobs(db));
  (globalThis as G)[startedKey] = true;
}

/** Jobs waiting per kind (created, or due for a retry) and how long the oldest has been due: the queue gauges (lib/platform/telemetry). */
export async function waitingJobs(db: Db): Promise<Array<{ kind: string; waiting: number; oldestSeconds: number }>> {
  const result = (await db.execute(sql`
    select name, count(*)::int as waiting, coalesce(extract(epoch from now() - min(start_after)), 0)::float8 as oldest
    from pgboss.job where state in ('created', 'retry') and start_after <= now() group by name
  `)) as unknown as { rows: Array<{ name: string; waiting: number; oldest: number }> };
  return result.rows.map((r) => ({ kind: r.name, waiting: Number(r.waiting), oldestSeconds: Number(r.oldest) }));
}


/** Whether this process's job workers run: startWorkers finished, stopQueue not called since (`/readyz`). */
export function workersStarted(): boolean {
  return (globalThis as G)[startedKey] === true;
}

/** The jobs this process's handlers are running (id → kind), so that a stop knows what it hands back. */
const runningKey = Symbol.for('paraphe.pgboss.running');
function runningJobs(): Map<string, string> {
  const g = globalThis as G;
  g[runningKey] ??= new Map<string, string>();
  return g[runningKey] as Map<string, string>;
}

/** Wraps `boss.work` so that every fetched job is in runningJobs() while its handler runs. */
function trackRunningJobs(boss: PgBoss) {
  const work = boss.work.bind(boss) as (name: string, ...args: unknown[]) => Promise<string>;
  const tracked = (name: string, ...args: unknown[]) => {
    const handler = args.pop() as (jobs: PgBoss.Job[]) => Promise<unknown>;
    return work(name, ...args, async (jobs: PgBoss.Job[]) => {
      const running = runningJobs();
      for (const job of jobs) running.set(job.id, name);
      try {
        return await handler(jobs);
      } finally {
        for (const job of jobs) running.delete(job.id);
      }
    });
  };
  (boss as unknown as { work: typeof tracked }).work = tracked;
}

export const HANDED_BACK_MESSAGE = 'handed back at shutdown';

export interface QueueStop {
  /** Jobs that were running when the stop began, or fetched during it, and finished within the grace. */
  finished: number;
  /** Jobs still running at the end of the grace: due again at once for another process, the attempt not counted. */
  handedBack: Array<{ id: string; kind: string }>;
}

/**
 * Stops this process's job workers: no more fetches, the running jobs get `graceSeconds` to finish, then whatever
 * still runs is handed back. pg-boss 10's `stop` (node_modules/pg-boss/src/index.js) stops every worker's polling,
 * waits while one has jobs (checked every 500 ms, for at least 1 s), then fails those still running ("pg-boss shut
 * down while active", manager.js failWip): a failure of the retry policy, due after its delay (30 s to minutes for
 * some kinds), counted as an attempt, and the end of a job on its last attempt. Right after it — nothing can fetch
 * them in between, their retry is not due yet — the same jobs are made due now as never started (`started_on` null:
 * pg-boss's fetch counts an attempt only for a job that had started), whether pg-boss set them to retry or failed.
 * A handler still running here goes on until the process exits; its completion no longer counts (pg-boss completes
 * an active job only), and the job's handler must be idempotent as for any retry.
 */
export async function stopQueue({ graceSeconds = 10 }: { graceSeconds?: number } = {}): Promise<QueueStop> {
  const g = globalThis as G;
  g[startedKey] = false;
  const pending = g[key];
  g[key] = undefined;
  if (!pending) return { finished: 0, handedBack: [] };
  const boss = await pending;
  const running = runningJobs();
  const seen = new Set(running.keys());
  const poll = setInterval(() => {
    for (const id of running.keys()) seen.add(id);
  }, 100);
  try {
    await boss.stop(graceSeconds > 0 ? { graceful: true, wait: true, timeout: graceSeconds * 1000 } : { graceful: false, wait: true });
  } finally {
    clearInterval(poll);
  }
  const handedBack = [...running].map(([id, kind]) => ({ id, kind }));
  for (const { id } of handedBack) seen.add(id);
  if (handedBack.length > 0) await handBack(handedBack.map((job) => job.id));
  return { finished: seen.size - handedBack.length, handedBack };
}

/** Makes these jobs, just failed by pg-boss's stop, due now and not counted as an attempt (see stopQueue). */
async function handBack(ids: readonly string[]) {
  const database = await getDatabase();
  await database.sql(
    `update pgboss.job set state = 'retry', start_after = now(), started_on = null, completed_on = null,
       output = jsonb_build_object('message', $2::text)
     where id = any($1::uuid[]) and state in ('retry', 'failed')`,
    [ids, HANDED_BACK_MESSAGE],
  );
}
