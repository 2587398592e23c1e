import { execSync, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { failIf, sizeFromEnv } from './lib/smoke';

/**
 * Issue 15's delivery figure: EVENTS events (contact.created) recorded at RATE events/s, each fanned out to 5
 * endpoints on loopback (4 receivers answering at once, 1 answering after SLOW_MS), delivered through the real path:
 * recordEvents → delivery rows and jobs in the event's transaction → pg-boss `webhooks.deliver` workers → signed HTTP
 * POST. Prints deliveries/s and the event→delivery delay (p50/p99) of the healthy endpoints, and the slow
 * endpoint's figures apart (bounded to MAX_IN_FLIGHT_PER_ENDPOINT attempts at once, it cannot finish in the run: what
 * matters is that it does not slow the others). Target: ≥ 500 deliveries/s, healthy p99 < 2 s. WARMUP events go
 * first (a running server's worker is warm: connections open, code compiled, receivers' latency known); their
 * cold-start delays are printed apart and left out of the figures.
 * PostgreSQL: a fresh database on 127.0.0.1:5432, dropped at the end. Exits non-zero when a healthy endpoint misses a
 * delivery or gets one twice, or a delivery row ends failed. BENCH_SMOKE=1: 20 events after a warm-up of 5, the slow
 * endpoint at 200 ms, no busy process.
 */
const EVENTS = sizeFromEnv('EVENTS', 10_000, 20);
const RATE = Number(process.env.RATE ?? 150);
const BATCH = Number(process.env.BATCH ?? 25);
const SLOW_MS = sizeFromEnv('SLOW_MS', 2000, 200);
const WORKERS = process.env.WORKERS ? Number(process.env.WORKERS) : undefined;
/** Events delivered before the clock starts (not counted): the figures are those of a running, warm worker. */
const WARMUP = sizeFromEnv('WARMUP', 300, 5);
/** How long the healthy endpoints may take to get every event (ms). */
const DEADLINE_MS = sizeFromEnv('DEADLINE_MS', 300_000, 30_000);
const HEALTHY = 4;
/**
 * Issue 36: the figure must hold with the machine busy, and be reproducible, so the bench makes the load itself: a second
 * process spinning BUSY threads (every core by default; 0 under BENCH_SMOKE or BUSY=0) from before the warm-up to the end.
 */
const BUSY = sizeFromEnv('BUSY', availableParallelism(), 0);
const spinSource = `const { Worker } = require('node:worker_threads'); for (let i = 0; i < ${BUSY}; i++) new Worker('for (;;) {}', { eval: true });`;
const busy = BUSY > 0 ? spawn(process.execPath, ['-e', spinSource], { stdio: 'ignore' }) : null;

const dbName = `paraphe_bench_webhooks_${process.pid}`;
execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${dbName}"`);
process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${dbName}`;
process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';

await import('@/lib/composition/modules');
const { sql } = await import('drizzle-orm');
const { closeDatabase, getDatabase } = await import('@/db/client');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { createContact } = await import('@/lib/domain/contacts');
const { recordEvents } = await import('@/lib/platform/events');
const { createEndpoint, deliverWebhookJob } = await import('@/lib/domain/webhooks');
const { getQueue, startWorkers, stopQueue } = await import('@/lib/platform/jobs');

/** A receiver that notes when each webhook-id arrived, answering after `delayMs`. */
async function receiver(delayMs: number) {
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, Date.now());
      setTimeout(() => res.end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    duplicates: () => duplicates,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

const database = await getDatabase();
const { db } = database;
const receivers = [...(await Promise.all(Array.from({ length: HEALTHY }, () => receiver(0)))), await receiver(SLOW_MS)];
try {
  const { org } = await createTestOrg('Bench Webhooks');
  for (const r of receivers) await createEndpoint(db, org.id, { url: r.url, events: ['*'], enabled: true });
  // The queue and its workers run before the first event, as in a running server.
  await getQueue();
  await startWorkers([(WORKERS ? { ...deliverWebhookJob, workers: WORKERS } : deliverWebhookJob) as never]);
  const contact = await createContact(db, org.id, { type: 'particulier', first_name: 'Zoé', last_name: 'Martin' });
  const workers = WORKERS ?? deliverWebhookJob.workers ?? 1;

  /** `count` events at RATE/s, in transactions of BATCH. */
  async function produce(count: number) {
    const from = Date.now();
    let produced = 0;
    while (produced < count) {
      const n = Math.min(BATCH, count - produced);
      await db.transaction((tx) => recordEvents(tx, org.id, 'contact.created', Array.from({ length: n }, () => contact)));
      produced += n;
      const wait = from + (produced / RATE) * 1000 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  const eventIds = async () =>
    ((await db.execute(sql`select id from events where org_id = ${org.id}`)) as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);

  // ── Warm-up: WARMUP events delivered to the healthy endpoints, then left out of every figure ─────────
  const warm = new Set<string>();
  if (WARMUP > 0) {
    await produce(WARMUP);
    const until = Date.now() + Math.min(120_000, DEADLINE_MS);
    while (receivers.slice(0, HEALTHY).some((r) => r.arrivals.size < WARMUP + 1) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    for (const id of await eventIds()) warm.add(id);
  }
  /** The arrivals of the measured events. */
  const measured = (r: (typeof receivers)[number]) => [...r.arrivals].filter(([id]) => !warm.has(id));

  // ── Produce: EVENTS events at RATE/s, in transactions of BATCH ────────────────────────────────────
  const started = Date.now();
  const cpu = process.cpuUsage();
  await produce(EVENTS);
  const producedMs = Date.now() - started;

  // ── Wait for the healthy endpoints (the slow one cannot finish: its bound × SLOW_MS) ───────────────
  const healthyTarget = (EVENTS + (WARMUP > 0 ? 0 : 1)) * HEALTHY;
  const healthyCount = () => receivers.slice(0, HEALTHY).reduce((sum, r) => sum + measured(r).length, 0);
  const deadline = Date.now() + DEADLINE_MS;
  while (healthyCount() < healthyTarget && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  const healthyDone = Math.max(...receivers.slice(0, HEALTHY).flatMap((r) => measured(r).map(([, at]) => at)));
  const cpuSeconds = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(cpu));

  // Event times from the outbox (created_at is the transaction's now()).
  const created = new Map<string, number>();
  const rows = (await db.execute(sql`select id, created_at from events where org_id = ${org.id}`)) as unknown as { rows: Array<{ id: string; created_at: string | Date }> };
  for (const r of rows.rows) created.set(r.id, new Date(r.created_at).getTime());
  const delays = (list: typeof receivers) =>
    list
      .flatMap((r) => measured(r).map(([id, at]) => at - (created.get(id) ?? at)))
      .sort((a, b) => a - b);
  const healthy = delays(receivers.slice(0, HEALTHY));
  const slow = delays(receivers.slice(HEALTHY));
  const seconds = (healthyDone - started) / 1000;
  const [counts] = (
    (await db.execute(sql`select count(*) filter (where status = 'succeeded')::int as succeeded, count(*) filter (where status = 'pending')::int as pending,
                                 count(*) filter (where status = 'failed')::int as failed from webhook_deliveries where org_id = ${org.id}`)) as unknown as {
      rows: Array<Record<string, number>>;
    }
  ).rows;

  console.log(
    `\nPostgreSQL; ${EVENTS} events at ${RATE}/s (batches of ${BATCH}, produced in ${(producedMs / 1000).toFixed(1)} s; after a warm-up of ${WARMUP}) × 5 endpoints; ` +
      `${workers} webhooks.deliver workers; ${BUSY ? `a second process spinning ${BUSY} threads beside it; ` : ''}load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  console.table([
    {
      endpoints: `${HEALTHY} healthy (0 ms)`,
      delivered: healthyCount(),
      expected: healthyTarget,
      'deliveries/s': Math.round(healthyCount() / seconds),
      'p50 ms': percentile(healthy, 50),
      'p99 ms': percentile(healthy, 99),
      'max ms': healthy.at(-1),
      duplicates: receivers.slice(0, HEALTHY).reduce((sum, r) => sum + r.duplicates(), 0),
    },
    {
      endpoints: `1 slow (${SLOW_MS} ms)`,
      delivered: measured(receivers[HEALTHY]!).length,
      expected: EVENTS + (WARMUP > 0 ? 0 : 1),
      'deliveries/s': Math.round(measured(receivers[HEALTHY]!).length / seconds),
      'p50 ms': percentile(slow, 50),
      'p99 ms': percentile(slow, 99),
      'max ms': slow.at(-1),
      duplicates: receivers[HEALTHY]!.duplicates(),
    },
  ]);
  if (WARMUP > 0) {
    const cold = receivers
      .slice(0, HEALTHY)
      .flatMap((r) => [...r.arrivals].filter(([id]) => warm.has(id)).map(([id, at]) => at - (created.get(id) ?? at)))
      .sort((a, b) => a - b);
    console.log(`warm-up (cold start, not counted): ${WARMUP} events, healthy p50 ${percentile(cold, 50)} ms, p99 ${percentile(cold, 99)} ms`);
  }
  console.log(`delivery rows at the end: ${JSON.stringify(counts)}; node CPU ${cpuSeconds.toFixed(1)} s over ${seconds.toFixed(1)} s`);
  const rate = healthyCount() / seconds;
  const p99 = percentile(healthy, 99);
  console.log(
    `healthy: ${Math.round(rate)} deliveries/s (target ≥ 500: ${rate >= 500 ? 'met' : 'MISSED'}), p99 ${p99} ms (target < 2000: ${p99 < 2000 ? 'met' : 'MISSED'})`,
  );
  failIf(healthyCount() < healthyTarget, `the healthy endpoints got ${healthyCount()} of ${healthyTarget} deliveries within ${DEADLINE_MS / 1000} s`);
  const duplicates = receivers.slice(0, HEALTHY).reduce((sum, r) => sum + r.duplicates(), 0);
  failIf(duplicates, `the healthy endpoints got ${duplicates} deliveries twice`);
  failIf(counts?.failed, `${counts?.failed} delivery rows ended failed`);
} finally {
  busy?.kill('SIGKILL');
  await stopQueue();
  await closeDatabase();
  for (const r of receivers) await r.close();
  execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)"`);
}
