import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { availableParallelism, loadavg } from 'node:os';
import { cpuClock, processName, processTree, sum } from './lib/cpu';
import { percentile } from './lib/fake-contacts';
import { pgbenchFloor } from './lib/pgbench';
import { type LoadResult, printTable, startServer } from './lib/server';
import { failIf, size, sizeFromEnv } from './lib/smoke';

/**
 * Issue 4's finalization figure: DRAFTS draft invoices (3 lines, two VAT rates) created first, then finalized
 * through POST /v1/invoices/{id}/finalize by CLIENTS concurrent clients on PostgreSQL. Every finalization of
 * an org takes the org's chain lock, so this measures the serialized section (number, snapshots, seal) under
 * contention. Afterwards the numbers are checked gapless and `chain:verify` recomputes every hash; either failing,
 * or any request answering other than 2xx, exits non-zero. BENCH_SMOKE=1: 20 drafts, 4 clients.
 *
 * The figure is read as a ratio (issue 36): pgbench runs bench/pgbench/finalize.sql, the same locked transaction with
 * no application, with as many clients for PGBENCH_SECONDS just before and just after the HTTP run, and the bench
 * prints finalizations/s ÷ pgbench tx/s, the CPU the server (and its JVM) and PostgreSQL spent per finalization, and
 * the load average. BENCH_PORT (3310) is the server's port; DRAFT_TYPE=devis finalizes quotes (no e-invoice to check).
 *
 * Under the lock (issue 36 item 2): each finalization's log line says how long its sealing statement waited for the
 * org's chain lock by PostgreSQL's clock (`chain_lock_wait_ms`); the bench prints their mean beside the request's
 * latency — what the lock costs a finalization, against what the rest of it costs.
 */
const DRAFTS = sizeFromEnv('DRAFTS', 3000, 20);
const CLIENTS = sizeFromEnv('CLIENTS', 16, 4);
const WARM_UP = size(100, 5);
const PGBENCH_SECONDS = sizeFromEnv('PGBENCH_SECONDS', 10, 2);
// DRAFT_TYPE=devis finalizes quotes, which have no e-invoice: the same locked path without the validation's CPU.
const DRAFT_TYPE = process.env.DRAFT_TYPE === 'devis' ? 'devis' : 'facture';

// BENCH_NODE_ARGS passes flags to the server's node (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof for a profile).
const server = await startServer(Number(process.env.BENCH_PORT || 3310), {}, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
const floor = pgbenchFloor('finalize');
try {
  if (!server.engine.startsWith('PostgreSQL')) throw new Error('bench:billing-finalize needs PostgreSQL on 127.0.0.1:5432 (PGlite serves one connection)');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}`;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl, '-qAtc', sql], { encoding: 'utf8' }).trim();
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    return { status: res.status, json };
  };

  const contact = await post('/v1/contacts', { company: 'Bench Finalisation SAS', siret: '73282932000074', address: '1 rue du Banc', postal_code: '69001', city: 'Lyon' });
  if (contact.status !== 201) throw new Error(`contact: ${contact.status} ${JSON.stringify(contact.json)}`);
  // Each draft its own first line: documents that differ give CIIs that differ, so that no e-invoice validation is
  // shared through the validator's cache by the hash of the XML (identical drafts numbered alike would be).
  const draft = (i: number) => ({
    type: DRAFT_TYPE,
    contact_id: contact.json.id,
    title: 'Prestation mensuelle',
    payment_terms: '30 jours',
    // Required at finalization since the mentions of 2026 (services and goods: « mixte »).
    operation_nature: 'mixte',
    items: [
      { description: `Développement, lot ${i + 1}`, quantity: '3.5', unit: 'DAY', unit_price: 65_000, vat_rate: '20' },
      { description: 'Hébergement', quantity: '1', unit: 'MON', unit_price: 4_990, vat_rate: '20' },
      { description: 'Documentation imprimée', quantity: '2', unit: 'H87', unit_price: 1_250, vat_rate: '5.5' },
    ],
  });

  /** Runs `task` over `items` with `clients` concurrent workers; latencies in ms. */
  async function pool<T>(items: T[], clients: number, task: (item: T) => Promise<number>) {
    const latencies: number[] = [];
    let next = 0;
    let failures = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < items.length) {
          const item = items[next++]!;
          const t0 = performance.now();
          const status = await task(item);
          latencies.push(performance.now() - t0);
          if (status >= 300) failures += 1;
        }
      }),
    );
    return { latencies, failures, seconds: (performance.now() - started) / 1000 };
  }

  const ids: string[] = [];
  const creation = await pool(
    Array.from({ length: DRAFTS + WARM_UP }, (_, i) => i),
    CLIENTS,
    async (i) => {
      const res = await post('/v1/invoices', draft(i));
      if (res.status === 201) ids.push(String(res.json.id));
      return res.status;
    },
  );
  if (creation.failures || ids.length !== DRAFTS + WARM_UP) throw new Error(`${creation.failures} drafts were not created`);
  console.log(`created ${ids.length} drafts in ${creation.seconds.toFixed(1)} s (${server.engine})`);

  const finalize = async (id: string) => (await post(`/v1/invoices/${id}/finalize`, {})).status;
  // The floor just before: then the warm-up, which also renews the keep-alive connections pgbench's seconds left idle.
  const floorBefore = await floor.run(CLIENTS, PGBENCH_SECONDS);
  // Warm the route (JIT, pools) on the first drafts; they are part of the chain verified below.
  const warm = await pool(ids.slice(0, WARM_UP), CLIENTS, finalize);
  // The PostgreSQL backends serving the bench database (the server's pool), whose CPU counts per finalization too.
  const backends = () => psql(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).split('\n').filter(Boolean).map(Number);
  const loadBefore = loadavg()[0]!;
  const serverCpu = cpuClock(() => processTree(server.pid));
  const databaseCpu = cpuClock(backends);
  // Whether the chain lock is still what finalizations wait for: the server's sessions waiting on a lock, sampled.
  const waiting: number[] = [];
  const inTransaction: number[] = [];
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { stdout } = await promisify(execFile)('psql', [databaseUrl, '-qAtc', `SELECT count(*) FILTER (WHERE wait_event_type = 'Lock'), count(*) FILTER (WHERE state = 'active' OR state LIKE 'idle in transaction%') FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`]);
      waiting.push(Number(stdout.split('|')[0]));
      inTransaction.push(Number(stdout.split('|')[1]));
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const waited: number[] = []; // chain_lock_wait_ms of each finalization of the run
  const statementMs: number[] = []; // chain_lock_statement_ms: the sealing statement's run, the lock held
  let listening = true;
  server.onLine((line) => {
    if (!listening || !line.includes('"document finalized"')) return;
    const m = /"chain_lock_wait_ms":([0-9.]+),"chain_lock_statement_ms":([0-9.]+)/.exec(line);
    if (m) {
      waited.push(Number(m[1]));
      statementMs.push(Number(m[2]));
    }
  });
  const run = await pool(ids.slice(WARM_UP), CLIENTS, finalize);
  // The last lines may still be in the pipe.
  await new Promise((r) => setTimeout(r, 500));
  listening = false;
  running = false;
  await sampler;
  const serverMs = serverCpu.elapsed();
  const databaseMs = databaseCpu.elapsed();
  const loadAfter = loadavg()[0]!;
  const floorAfter = await floor.run(CLIENTS, PGBENCH_SECONDS);
  failIf(warm.failures + run.failures, `${warm.failures + run.failures} finalizations answered other than 2xx`);

  const ms = (v: number) => Math.round(v * 10) / 10;
  const row: LoadResult = {
    title: `POST /v1/invoices/{id}/finalize, ${CLIENTS} clients`,
    requestsPerSecond: Math.round(DRAFTS / run.seconds),
    p50: ms(percentile(run.latencies, 50)),
    p99: ms(percentile(run.latencies, 99)),
    non2xx: run.failures,
    errors: 0,
  };
  console.log(
    `\nengine: ${server.engine}; ${DRAFTS} draft invoices (3 lines) finalized by ${CLIENTS} concurrent clients in ${run.seconds.toFixed(1)} s; ` +
      `built server (next start); load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  printTable([row]);
  console.log(`finalizations per second: ${row.requestsPerSecond}; p95 ${ms(percentile(run.latencies, 95))} ms`);
  const perSecond = DRAFTS / run.seconds;
  const floorTps = (floorBefore.tps + floorAfter.tps) / 2;
  console.log(
    `pgbench ${floor.script}, ${CLIENTS} clients, ${PGBENCH_SECONDS} s just before the warm-up and just after the run: ${floorBefore.tps.toFixed(0)} and ${floorAfter.tps.toFixed(0)} tx/s ` +
      `(latency ${floorBefore.latencyMs.toFixed(1)} / ${floorAfter.latencyMs.toFixed(1)} ms)`,
  );
  console.log(
    `ratio: ${perSecond.toFixed(1)} finalizations/s ÷ ${floorTps.toFixed(0)} tx/s = ${((100 * perSecond) / floorTps).toFixed(1)} % ` +
      `(${((100 * perSecond) / floorBefore.tps).toFixed(1)} % of the run before, ${((100 * perSecond) / floorAfter.tps).toFixed(1)} % of the one after)`,
  );
  failIf(waited.length !== DRAFTS, `${waited.length} finalization log lines with chain_lock_wait_ms, ${DRAFTS} expected`);
  const meanLatency = sum(run.latencies) / run.latencies.length;
  console.log(
    `waited for the chain lock (PostgreSQL's clock), per finalization: mean ${(sum(waited) / waited.length).toFixed(2)} ms, p50 ${ms(percentile(waited, 50))}, ` +
      `p99 ${ms(percentile(waited, 99))} ms — ${((100 * sum(waited)) / sum(run.latencies)).toFixed(1)} % of the mean request latency (${meanLatency.toFixed(1)} ms)`,
  );
  // The lock is held from the statement's locks to the commit: its run, then this process's answer and the COMMIT.
  console.log(
    `the sealing statement's run, the lock held (PostgreSQL's clock): mean ${(sum(statementMs) / statementMs.length).toFixed(2)} ms, p99 ${ms(percentile(statementMs, 99))} ms; ` +
      `the rest of the hold is this process reading the answer and sending the COMMIT, then the commit`,
  );
  // Each process of the server's tree (next start, its JVM), by name: next start may serve from a child process.
  const tree = [...serverMs].filter(([, used]) => used > 0).map(([pid, used]) => `${processName(pid)} ${(used / DRAFTS).toFixed(2)}`);
  console.log(
    `CPU per finalization: server ${(sum(serverMs.values()) / DRAFTS).toFixed(2)} ms (${tree.join(', ')}), ` +
      `PostgreSQL backends ${(sum(databaseMs.values()) / DRAFTS).toFixed(2)} ms; wall ${((1000 * run.seconds) / DRAFTS).toFixed(2)} ms per finalization ` +
      `at ${CLIENTS} clients, p50 ${row.p50} ms`,
  );
  const mean = (v: number[]) => (v.length ? sum(v) / v.length : 0);
  console.log(
    `sessions of the server waiting on a lock (chain, draft): ${mean(waiting).toFixed(1)} on average, in a transaction or active: ${mean(inTransaction).toFixed(1)} (${waiting.length} samples)`,
  );
  console.log(`load average: ${loadBefore.toFixed(1)} at the start of the run, ${loadAfter.toFixed(1)} at its end (${availableParallelism()} CPUs)`);

  const orgId = psql(`SELECT org_id FROM documents WHERE id = '${ids[0]}'`);
  const [count, distinct, first, last] = psql(
    `SELECT count(*), count(DISTINCT number), min(substring(number from '[0-9]+$')::int), max(substring(number from '[0-9]+$')::int)
       FROM documents WHERE org_id = '${orgId}' AND type = '${DRAFT_TYPE}' AND finalized_at IS NOT NULL`,
  ).split('|');
  const gapless = count === distinct && first === '1' && last === count;
  failIf(Number(count) !== DRAFTS + WARM_UP, `${count} invoices finalized, ${DRAFTS + WARM_UP} expected`);
  failIf(!gapless, `the numbers are not gapless: ${count} finalized, ${distinct} distinct, ${first} to ${last}`);
  console.log(`numbers: ${count} finalized, ${distinct} distinct, ${first} to ${last}: ${gapless ? 'gapless' : 'NOT GAPLESS'}`);

  // chain:verify, the CLI an auditor runs, against the bench database.
  const verified = performance.now();
  // It exits 1 on a broken link or a skipped number.
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'chain:verify', '--org', orgId], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    console.log(`${out.trim()} (${((performance.now() - verified) / 1000).toFixed(1)} s)`);
  } catch (error) {
    const { status, stdout, stderr } = error as { status?: number; stdout?: string; stderr?: string };
    failIf(true, `chain:verify exited ${status}: ${`${stdout ?? ''}${stderr ?? ''}`.trim()}`);
  }
} finally {
  await server.stop();
  floor.drop();
}
