import { availableParallelism, loadavg } from 'node:os';
import { fakeContact, percentile } from './lib/fake-contacts';
import { startServer } from './lib/server';

/**
 * Issue 3's import figure: POST /v1/contacts/import with 1000 valid, distinct rows (every row created,
 * consent history and events included), one request at a time against the built server. Two warm-up
 * imports, then RUNS measured. Target: median under 1 s on PostgreSQL.
 */
const RUNS = Number(process.env.RUNS ?? 15);
const WARM_UP = 2;

const server = await startServer(3302);
try {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const times: number[] = [];
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const body = JSON.stringify({ contacts: Array.from({ length: 1000 }, (_, i) => fakeContact(i, `r${run}-`)) });
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/v1/contacts/import`, { method: 'POST', headers, body });
    const summary = (await res.json()) as { created?: number; skipped?: number; errors?: unknown[] };
    const ms = performance.now() - started;
    if (res.status !== 200 || summary.created !== 1000) throw new Error(`import ${run}: ${res.status} ${JSON.stringify(summary).slice(0, 500)}`);
    if (run >= WARM_UP) times.push(ms);
  }
  console.log(
    `\nengine: ${server.engine}; POST /v1/contacts/import, 1000 valid rows each, ${RUNS} runs after ${WARM_UP} warm-up, built server (next start); ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  const round = (n: number) => Math.round(n);
  console.table([
    {
      run: 'import 1000 rows',
      runs: RUNS,
      'median ms': round(percentile(times, 50)),
      'p95 ms': round(percentile(times, 95)),
      'min ms': round(Math.min(...times)),
      'max ms': round(Math.max(...times)),
      'rows/s (median)': round(1000 / (percentile(times, 50) / 1000)),
    },
  ]);
  console.log(`median: ${round(percentile(times, 50))} ms (target < 1000 ms)`);
} finally {
  await server.stop();
}
