import { availableParallelism, loadavg } from 'node:os';
import { fakeContact, percentile } from './lib/fake-contacts';
import { startServer } from './lib/server';
import { size, sizeFromEnv } from './lib/smoke';

/**
 * Issue 3's import figure: POST /v1/contacts/import with ROWS (1000) valid, distinct rows (every row created,
 * consent history and events included), one request at a time against the built server. Two warm-up
 * imports, then RUNS measured. Target: median under 1 s on PostgreSQL (printed, never asserted). Any import answering
 * other than 200 or not creating every row stops the bench with a non-zero exit. BENCH_SMOKE=1: one warm-up and one
 * measured import of 200 rows.
 */
const RUNS = sizeFromEnv('RUNS', 15, 1);
const WARM_UP = size(2, 1);
const ROWS = sizeFromEnv('ROWS', 1000, 200);

const server = await startServer(3302);
try {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const body = JSON.stringify({ contacts: Array.from({ length: ROWS }, (_, i) => fakeContact(i, `r${run}-`)) });
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/v1/contacts/import`, { method: 'POST', headers, body });
    const summary = (await res.json()) as { created?: number; skipped?: number; errors?: unknown[] };
    const ms = performance.now() - started;
    if (res.status !== 200 || summary.created !== ROWS) throw new Error(`import ${run}: ${res.status} ${JSON.stringify(summary).slice(0, 500)}`);
    if (run >= WARM_UP) times.push(ms);
  }
  console.log(
    `\nengine: ${server.engine}; POST /v1/contacts/import, ${ROWS} valid rows each, ${RUNS} runs after ${WARM_UP} warm-up, built server (next start); ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  const round = (n: number) => Math.round(n);
  console.table([
    {
      run: `import ${ROWS} rows`,
      runs: RUNS,
      'median ms': round(percentile(times, 50)),
      'p95 ms': round(percentile(times, 95)),
      'min ms': round(Math.min(...times)),
      'max ms': round(Math.max(...times)),
      'rows/s (median)': round(ROWS / (percentile(times, 50) / 1000)),
    },
  ]);
  console.log(`median: ${round(percentile(times, 50))} ms (target < 1000 ms)`);
} finally {
  await server.stop();
}
