import { afterAll, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { defineJob } from './define';
import { enqueue, enqueueMany, getQueue, startWorkers, stopQueue } from './queue';

afterAll(() => stopQueue());

it('runs a queued job through pg-boss on the configured engine, retrying a failure', async () => {
  const seen: Array<{ data: { n: number }; attempt: number }> = [];
  const job = defineJob<{ n: number }>({
    name: 'test.echo',
    retryLimit: 2,
    retryDelaySeconds: 1,
    retryBackoff: false,
    async handle(data, { attempt }) {
      seen.push({ data, attempt });
      if (attempt === 1) throw new Error('first attempt fails');
    },
  });
  const boss = await getQueue();
  await boss.createQueue(job.name, { name: job.name, retryLimit: 2, retryDelay: 1 });
  await startWorkers([job as never]);
  const id = await enqueue(await getDb(), job, { n: 42 });
  expect(id).toBeTruthy();

  const deadline = Date.now() + 20_000;
  let state: string | undefined;
  while (Date.now() < deadline) {
    state = (await boss.getJobById(job.name, id!))?.state;
    if (state === 'completed') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(state).toBe('completed');
  expect(seen).toEqual([
    { data: { n: 42 }, attempt: 1 },
    { data: { n: 42 }, attempt: 2 },
  ]);
});

it('drains a backlog at handler speed, not one job per polling interval', async () => {
  const done: number[] = [];
  const job = defineJob<{ n: number }>({
    name: 'test.backlog',
    retryLimit: 0,
    retryDelaySeconds: 1,
    retryBackoff: false,
    async handle(data) {
      done.push(data.n);
    },
  });
  const boss = await getQueue();
  await boss.createQueue(job.name, { name: job.name, retryLimit: 0 });
  const db = await getDb();
  for (let n = 0; n < 30; n++) await enqueue(db, job, { n });
  const started = Date.now();
  await startWorkers([job as never]);
  while (done.length < 30 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 50));
  expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
  // One per second (the polling interval) would take 30 s.
  expect(Date.now() - started).toBeLessThan(10_000);
});

it('writes a job in the caller transaction: it exists once that commits, never if it rolls back', async () => {
  const job = defineJob<{ n: number }>({ name: 'test.transactional', retryLimit: 0, retryDelaySeconds: 1, retryBackoff: false, async handle() {} });
  const boss = await getQueue();
  await boss.createQueue(job.name, { name: job.name, retryLimit: 0 });
  const db = await getDb();
  let rolledBack: string | undefined;
  await expect(
    db.transaction(async (tx) => {
      rolledBack = await enqueue(tx, job, { n: 1 });
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  const committed = await db.transaction((tx) => enqueueMany(tx, [{ def: job as never, data: { n: 2 } }, { def: job as never, data: { n: 3 } }]));
  expect(await boss.getJobById(job.name, rolledBack!)).toBeNull();
  const jobs = await Promise.all(committed.map((id) => boss.getJobById(job.name, id)));
  expect(jobs.map((j) => [j?.state, j?.data])).toEqual([
    ['created', { n: 2 }],
    ['created', { n: 3 }],
  ]);
});

/** Six jobs fetched by one batch of ten; n = 3 fails its first attempt. What ran, how many at once, how they ended. */
async function runSixInABatch(name: string, options: { sequentialBatch?: boolean } = {}) {
  const seen: Array<{ n: number; attempt: number }> = [];
  let running = 0;
  let most = 0;
  const job = defineJob<{ n: number }>({
    name,
    retryLimit: 1,
    retryDelaySeconds: 1,
    retryBackoff: false,
    batchSize: 10,
    ...options,
    async handle(data, { attempt }) {
      seen.push({ n: data.n, attempt });
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 50));
      running--;
      if (data.n === 3 && attempt === 1) throw new Error('n = 3 fails once');
    },
  });
  const boss = await getQueue();
  await boss.createQueue(job.name, { name: job.name, retryLimit: 1, retryDelay: 1 });
  const db = await getDb();
  const ids = await db.transaction((tx) => enqueueMany(tx, Array.from({ length: 6 }, (_, n) => ({ def: job as never, data: { n } }))));
  await startWorkers([job as never]);
  const deadline = Date.now() + 20_000;
  let states: Array<string | undefined> = [];
  while (Date.now() < deadline) {
    states = await Promise.all(ids.map(async (id) => (await boss.getJobById(job.name, id))?.state));
    if (states.every((s) => s === 'completed')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { states, seen, most };
}

it('batchSize: one fetch takes several jobs, run at once; a job that throws is failed and retried alone', async () => {
  const { states, seen, most } = await runSixInABatch('test.batch');
  expect(states).toEqual(Array(6).fill('completed'));
  // Every job once, n = 3 twice (its retry); the batch ran concurrently in one worker.
  expect(seen.filter((s) => s.attempt === 1).map((s) => s.n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  expect(seen.filter((s) => s.attempt === 2)).toEqual([{ n: 3, attempt: 2 }]);
  expect(most).toBeGreaterThan(1);
});

it('sequentialBatch: the fetched batch runs one job after another, each still completed or retried alone', async () => {
  const { states, seen, most } = await runSixInABatch('test.batch-sequential', { sequentialBatch: true });
  expect(states).toEqual(Array(6).fill('completed'));
  expect(seen.filter((s) => s.attempt === 1).map((s) => s.n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  expect(seen.filter((s) => s.attempt === 2)).toEqual([{ n: 3, attempt: 2 }]);
  expect(most).toBe(1);
});

it('handleBatch: the whole batch in one call, with each job’s own outcome', async () => {
  const calls: number[][] = [];
  const job = defineJob<{ n: number }>({
    name: 'test.batch-handler',
    retryLimit: 0,
    retryDelaySeconds: 1,
    retryBackoff: false,
    batchSize: 10,
    async handle() {
      throw new Error('handleBatch runs instead');
    },
    async handleBatch(jobs) {
      calls.push(jobs.map((j) => j.data.n));
      return jobs.map((j) => (j.data.n === 1 ? new Error('n = 1 fails') : null));
    },
  });
  const boss = await getQueue();
  await boss.createQueue(job.name, { name: job.name, retryLimit: 0 });
  const db = await getDb();
  const ids = await db.transaction((tx) => enqueueMany(tx, [0, 1, 2].map((n) => ({ def: job as never, data: { n } }))));
  await startWorkers([job as never]);
  const deadline = Date.now() + 20_000;
  let states: Array<string | undefined> = [];
  while (Date.now() < deadline) {
    states = await Promise.all(ids.map(async (id) => (await boss.getJobById(job.name, id))?.state));
    if (states.every((s) => s === 'completed' || s === 'failed')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(states).toEqual(['completed', 'failed', 'completed']);
  expect(calls.flat().sort()).toEqual([0, 1, 2]);
});
