import { loadavg } from 'node:os';
import { type LoadResult, load, printTable, startServer } from './lib/server';
import { sizeFromEnv } from './lib/smoke';

/**
 * Issue 2's figure: an authenticated GET that reads one row (API key verified, scope, rate-limit point taken from
 * the process's lease of the shared quota, one SELECT) against a bare route returning a constant, 32 connections,
 * on the built server.
 * Target: authenticated ≥ 60 % of bare throughput, p99 < 25 ms. The server runs with the production pool size (10);
 * BENCH_ENGINE=pglite measures the embedded engine, BENCH_ROUNDS / BENCH_SECONDS the length, BENCH_POOL the pool.
 * The two alternate over ROUNDS rounds so that background load on a shared machine weighs on both alike;
 * the ratio reported is the median of the per-round ratios. BENCH_SMOKE=1: one round of a few requests (every
 * answer must be 2xx; the ratio and p99 are printed, never asserted).
 */
const ROUNDS = sizeFromEnv('BENCH_ROUNDS', 3, 1);
const SECONDS = sizeFromEnv('BENCH_SECONDS', 8, 1);

// The pool at the production default (10 connections); BENCH_NODE_ARGS passes flags to node (e.g. a GC setting to try).
const server = await startServer(3301, { DATABASE_POOL_MAX: process.env.BENCH_POOL ?? '10' }, (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean));
try {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.baseUrl}/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ company: 'Bench SARL', email: 'bench@example.fr' }) });
  if (created.status !== 201) throw new Error(`setup failed: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const bareUrl = `${server.baseUrl}/healthz`;
  const authUrl = `${server.baseUrl}/v1/contacts/${id}`;

  // Warm both paths (JIT, route compilation, key cache) before measuring.
  await load('warm-up', { url: bareUrl, duration: 3 });
  await load('warm-up', { url: authUrl, headers, duration: 3 });

  const rows: LoadResult[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const bare = await load(`#${round} bare GET /healthz`, { url: bareUrl, duration: SECONDS, cpuOf: server.pid });
    const authed = await load(`#${round} authenticated GET /v1/contacts/{id}`, { url: authUrl, headers, duration: SECONDS, cpuOf: server.pid });
    rows.push(bare, authed);
    ratios.push(authed.requestsPerSecond / bare.requestsPerSecond);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\nengine: ${server.engine}; 32 connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, built server (next start)`);
  printTable(rows);
  console.log(`authenticated / bare throughput, median of rounds: ${(median(ratios) * 100).toFixed(1)} % (target ≥ 60 %) — per round: ${ratios.map((r) => `${(r * 100).toFixed(1)} %`).join(', ')}`);
  const p99 = (parity: number) => median(rows.filter((_, i) => i % 2 === parity).map((r) => r.p99));
  // The server's CPU per request holds where throughput follows the machine's load: bare ÷ authenticated is the
  // throughput ratio a CPU-bound server would reach.
  const cpu = (parity: number) => median(rows.filter((_, i) => i % 2 === parity).map((r) => r.cpuMsPerRequest ?? 0));
  console.log(`server CPU per request, median of rounds: bare ${cpu(0)} ms, authenticated ${cpu(1)} ms — bare ÷ authenticated ${((cpu(0) / cpu(1)) * 100).toFixed(1)} % (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  // The bare route's own p99 is the floor this machine and Next.js set: the authenticated one cannot go below it.
  console.log(`p99, median of rounds: authenticated ${p99(1)} ms (target < 25 ms), bare ${p99(0)} ms`);
} finally {
  await server.stop();
}
