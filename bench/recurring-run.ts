import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { failIf, sizeFromEnv } from './lib/smoke';

/**
 * Issue 16's monthly run: TEMPLATES active monthly templates with auto_send, due today, on PostgreSQL (a fresh
 * database on 127.0.0.1:5432), outbox e-mail transport. The clock starts when the hourly schedule's fan-out runs (one
 * `recurring.generate` job per template); it stops when every invoice is generated, finalized, rendered (PDF +
 * Factur-X, render_status ready) and e-mailed (outbox status sent). MODE=inline runs the jobs in this process (the
 * server's inline worker); MODE=workers starts WORKERS worker processes as `npm run worker` does (dist/worker.mjs, built first).
 * Prints each stage's completion time and throughput, and the peak RSS of every process that ran jobs. The templates
 * are spread over ORGS organisations (each org's finalizations are serialized by its hash chain). Exits non-zero when a
 * generation failed or not every invoice reached the outbox within TIMEOUT_S. BENCH_SMOKE=1: 5 templates, 90 s at most.
 */
const TEMPLATES = sizeFromEnv('TEMPLATES', 10_000, 5);
const ORGS = Number(process.env.ORGS ?? 1);
const MODE = process.env.MODE === 'workers' ? 'workers' : 'inline';
const WORKERS = Number(process.env.WORKERS ?? 2);
const TIMEOUT_S = sizeFromEnv('TIMEOUT_S', 1500, 90);
/** PROFILE_DIR=dir: each worker process writes a V8 CPU profile there (node --cpu-prof) when it stops. */
const PROFILE_DIR = process.env.PROFILE_DIR;

const dbName = `paraphe_bench_recurring_${process.pid}`;
execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${dbName}"`);
const storage = mkdtempSync(path.join(tmpdir(), 'paraphe-bench-recurring-'));
Object.assign(process.env, {
  DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`,
  STORAGE_DIR: storage,
  NODE_ENV: 'production',
});
delete process.env.RESEND_API_KEY;
delete process.env.STRIPE_SECRET_KEY;

const { sql } = await import('drizzle-orm');
const { closeDatabase, getDatabase } = await import('@/db/client');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { jobs } = await import('@/lib/composition/modules');
const { enqueueDueTemplates } = await import('@/lib/domain/recurring');
const { todayParis } = await import('@/lib/platform/dates');
const { getQueue, prepareQueues, startWorkers, stopQueue } = await import('@/lib/platform/jobs');

const database = await getDatabase();
const { db } = database;
const rows = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
const children: ChildProcess[] = [];
const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const TICK_S = 0.01; // USER_HZ = 100 on Linux
/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_S;
};
/** CPU seconds the whole machine has spent busy (every process: the workers, PostgreSQL, anything else running). */
const machineBusySeconds = () => {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq!) * TICK_S;
};
const cpuUsed = new Map<string, number>();
/** The processes a process started (the e-invoice validation's JVM). */
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const cpuAtStart = new Map<number, number>();
/** CPU seconds of each PostgreSQL backend of the bench's database since the clock started. */
const backendCpu = new Map<number, number>();
/** CPU seconds `pid` used since the clock started (0 for a process started after it). */
const cpuSinceStart = (pid: number) => cpuSeconds(pid) - (cpuAtStart.get(pid) ?? 0);
/** Peak RSS and CPU of a process that runs jobs, and of its JVM when it has one. */
function sample(label: string, pid: number) {
  peaks.set(label, pid === process.pid ? process.resourceUsage().maxRSS / 1024 : peakRss(pid));
  cpuUsed.set(label, cpuSinceStart(pid));
  for (const child of childrenOf(pid)) {
    try {
      peaks.set(`${label}: its JVM (pid ${child})`, peakRss(child));
      cpuUsed.set(`${label}: its JVM (pid ${child})`, cpuSinceStart(child));
    } catch {
      // ended meanwhile
    }
  }
}
const peaks = new Map<string, number>();

try {
  // ── Seed: ORGS orgs, one client with an e-mail per template, one template each ───────────────────────────────
  const seeding = performance.now();
  const today = todayParis();
  const items = JSON.stringify([
    { kind: 'product', description: 'Abonnement mensuel', details: null, position: 0, quantity: '1', unit: 'MON', unit_price: 4_990, vat_rate: '20.00', vat_category: 'S', vat_exemption_reason: null },
    { kind: 'product', description: 'Support', details: null, position: 1, quantity: '2', unit: 'HUR', unit_price: 6_000, vat_rate: '20.00', vat_category: 'S', vat_exemption_reason: null },
  ]);
  const perOrg = Math.ceil(TEMPLATES / ORGS);
  for (let o = 0; o < ORGS; o++) {
    const org = await createTestOrg(`Bench Abonnements ${o + 1}`);
    const n = Math.min(perOrg, TEMPLATES - o * perOrg);
    await db.execute(sql`
      INSERT INTO contacts (id, org_id, type, company, email, siret, address, postal_code, city, created_at, updated_at)
      SELECT gen_random_uuid(), ${org.org.id}, 'professionnel', 'Abonné ' || i || ' SARL', 'compta' || i || '@abonne-bench.fr',
             '55203253400646', '1 rue du Client', '69001', 'Lyon', now(), now()
        FROM generate_series(1, ${n}) i`);
    await db.execute(sql`
      INSERT INTO recurring_templates (id, org_id, contact_id, frequency, items, next_generation_date, anchor_day, title, operation_nature, auto_send)
      SELECT gen_random_uuid(), ${org.org.id}, c.id, 'monthly', ${items}::jsonb, ${today}::date, extract(day from ${today}::date)::int,
             'Abonnement', 'services', true
        FROM contacts c WHERE c.org_id = ${org.org.id}`);
  }
  await db.execute(sql`ANALYZE`);
  console.log(`seeded ${TEMPLATES} templates over ${ORGS} org(s) in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

  // ── Workers ready before the clock starts, as in a running deployment ─────────────────────────────────────────
  await prepareQueues(database, jobs);
  if (MODE === 'inline') {
    // As the server's inline worker (lib/composition/boot.ts): every kind, the cron ones too (the table maintenance where the
    // server runs no autovacuum), the e-invoice validation's JVM warmed up first.
    await (await import('@/lib/domain/facturx')).warmUpEInvoiceValidation();
    await startWorkers(jobs);
  } else {
    await getQueue();
    // What `npm run worker` runs: the compiled worker (scripts/build-worker.mjs) under plain node.
    execSync('npm run -s build:worker', { stdio: 'inherit' });
    for (let i = 0; i < WORKERS; i++) {
      const child = spawn(process.execPath, [...(PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []), 'dist/worker.mjs'], { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          const text = d.toString();
          if (text.includes('worker started')) resolve();
          // Its last words: how many e-invoices it validated, and how many validations it reused.
          if (text.includes('worker stopping')) process.stdout.write(`worker ${i + 1}: ${text}`);
        });
        child.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
      });
    }
  }

  // ── The hourly tick, then wait for every stage ───────────────────────────────────────────────────────────────
  const started = performance.now();
  const busyAtStart = machineBusySeconds();
  for (const { pid } of await rows(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)) cpuAtStart.set(Number(pid), cpuSeconds(Number(pid)));
  const running = MODE === 'inline' ? [process.pid] : children.map((c) => c.pid!);
  for (const pid of [...running, ...running.flatMap(childrenOf)]) cpuAtStart.set(pid, cpuSeconds(pid));
  // The tables' scan counters from here on (this database's only): which table PostgreSQL reads whole, and how often.
  await db.execute(sql`SELECT pg_stat_reset()`);
  const due = await enqueueDueTemplates(db);
  const fanOutS = (performance.now() - started) / 1000;
  const stages = ['generated', 'finalized', 'rendered', 'e-mailed'] as const;
  const doneAt: Partial<Record<(typeof stages)[number], number>> = {};
  let last: Record<string, number> = {};
  while ((performance.now() - started) / 1000 < TIMEOUT_S) {
    const [c] = await rows(sql`
      SELECT (SELECT count(*) FROM recurring_generations WHERE document_id IS NOT NULL) AS generated,
             (SELECT count(*) FROM recurring_generations WHERE status = 'failed') AS failed,
             (SELECT count(*) FROM documents WHERE type = 'facture' AND finalized_at IS NOT NULL) AS finalized,
             (SELECT count(*) FROM documents d JOIN document_renders r ON r.document_id = d.id WHERE d.type = 'facture' AND r.status = 'ready') AS rendered,
             (SELECT count(*) FROM emails WHERE template = 'document_sent' AND status = 'sent') AS emailed`);
    last = Object.fromEntries(Object.entries(c!).map(([k, v]) => [k, Number(v)]));
    const t = (performance.now() - started) / 1000;
    for (const s of stages) if (doneAt[s] === undefined && last[s === 'e-mailed' ? 'emailed' : s]! >= TEMPLATES) doneAt[s] = t;
    if (MODE === 'inline') sample('bench process (inline worker)', process.pid);
    else for (const [i, child] of children.entries()) sample(`worker ${i + 1} (pid ${child.pid})`, child.pid!);
    cpuUsed.set('whole machine (busy)', machineBusySeconds() - busyAtStart);
    // PostgreSQL's share: the backends serving this database (the workers' pools stay connected through the run).
    for (const { pid } of await rows(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)) {
      try {
        if (!cpuAtStart.has(Number(pid))) cpuAtStart.set(Number(pid), cpuSeconds(Number(pid)));
        backendCpu.set(Number(pid), cpuSinceStart(Number(pid)));
      } catch {
        // ended meanwhile: its last reading stays
      }
    }
    if (doneAt['e-mailed'] !== undefined || last.failed! > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const total = doneAt['e-mailed'];
  // Rows read by sequential scans, per table, since the clock started (the bench's own counting above included: a few
  // scans a second): a table whose rows are read many times per invoice is where PostgreSQL's time goes as it grows.
  const scans = await rows(sql`
    SELECT schemaname || '.' || relname AS "table", seq_scan AS "seq scans", seq_tup_read AS "rows read by seq scans",
           idx_scan AS "index scans", n_tup_ins AS inserted, n_tup_upd AS updated, n_live_tup AS "rows at the end"
      FROM pg_stat_all_tables WHERE schemaname IN ('public', 'pgboss') ORDER BY seq_tup_read DESC LIMIT 10`);
  console.table(scans.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'table' ? v : Number(v)]))));
  console.log(
    `\nengine: PostgreSQL 15; ${TEMPLATES} monthly templates with auto_send due today over ${ORGS} org(s); ${MODE === 'inline' ? 'inline worker' : `${WORKERS} worker processes`}; ` +
      `fan-out of ${due} generate jobs in ${fanOutS.toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs`,
  );
  console.log(`uptime: ${execSync('uptime').toString().trim()}`);
  console.table(
    stages.map((s) => ({
      stage: s,
      'all done at s': doneAt[s] === undefined ? 'not done' : Math.round(doneAt[s]! * 10) / 10,
      'count at the end': last[s === 'e-mailed' ? 'emailed' : s],
      'throughput /min': doneAt[s] ? Math.round((TEMPLATES / doneAt[s]!) * 60) : null,
    })),
  );
  console.table([...peaks].map(([process, mb]) => ({ process, 'peak RSS MB': Math.round(mb), 'CPU s': Math.round(cpuUsed.get(process)!) })));
  // The figure the load moves least: CPU per invoice. On an idle machine the run takes about TEMPLATES × (workers +
  // PostgreSQL) / CPUs, if the work spreads over the cores.
  const perInvoiceMs = (seconds: number) => (seconds / TEMPLATES) * 1000;
  const workersCpu = [...cpuUsed].filter(([k]) => k !== 'whole machine (busy)').reduce((a, [, v]) => a + v, 0);
  const postgresCpu = [...backendCpu.values()].reduce((a, v) => a + v, 0);
  console.log(
    `CPU per invoice: ${perInvoiceMs(workersCpu).toFixed(0)} ms in the worker processes and their JVMs, ${perInvoiceMs(postgresCpu).toFixed(0)} ms in ` +
      `PostgreSQL (this database's backends), ${perInvoiceMs(cpuUsed.get('whole machine (busy)')!).toFixed(0)} ms for the whole machine (whatever else ran included); ` +
      `10,000 invoices would need ${((10_000 * (workersCpu + postgresCpu)) / TEMPLATES / availableParallelism() / 60).toFixed(1)} min of ${availableParallelism()} busy cores`,
  );
  console.log(
    total === undefined
      ? `NOT DONE within ${TIMEOUT_S} s (failed generations: ${last.failed})`
      : `every invoice generated, finalized, rendered and e-mailed in ${total.toFixed(1)} s (${(total / 60).toFixed(1)} min; target < 10 min with two workers)`,
  );
  failIf(due !== TEMPLATES, `the hourly tick queued ${due} generations, ${TEMPLATES} expected`);
  failIf(last.failed, `${last.failed} generations failed`);
  failIf(total === undefined, `not every invoice was generated, finalized, rendered and e-mailed within ${TIMEOUT_S} s: ${JSON.stringify(last)}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await stopQueue();
  await closeDatabase();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)"`);
  rmSync(storage, { recursive: true, force: true });
}
