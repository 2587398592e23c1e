import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './lib/fake-contacts';
import { type LoadResult, printTable, startServer } from './lib/server';
import { failIf, size, sizeFromEnv } from './lib/smoke';

/**
 * Issue 4's finalization figure: DRAFTS draft invoices (3 lines, two VAT rates) created first, then finalized
 * through POST /v1/invoices/{id}/finalize by CLIENTS concurrent clients on PostgreSQL. Every finalization of
 * an org takes the org's chain lock, so this measures the serialized section (number, snapshots, seal) under
 * contention. Afterwards the numbers are checked gapless and `chain:verify` recomputes every hash; either failing,
 * or any request answering other than 2xx, exits non-zero. BENCH_SMOKE=1: 20 drafts, 4 clients.
 */
const DRAFTS = sizeFromEnv('DRAFTS', 3000, 20);
const CLIENTS = sizeFromEnv('CLIENTS', 16, 4);
const WARM_UP = size(100, 5);

const server = await startServer(3310);
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
  const draft = {
    type: 'facture',
    contact_id: contact.json.id,
    title: 'Prestation mensuelle',
    payment_terms: '30 jours',
    // Required at finalization since the mentions of 2026 (services and goods: « mixte »).
    operation_nature: 'mixte',
    items: [
      { description: 'Développement', quantity: '3.5', unit: 'DAY', unit_price: 65_000, vat_rate: '20' },
      { description: 'Hébergement', quantity: '1', unit: 'MON', unit_price: 4_990, vat_rate: '20' },
      { description: 'Documentation imprimée', quantity: '2', unit: 'H87', unit_price: 1_250, vat_rate: '5.5' },
    ],
  };

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
    async () => {
      const res = await post('/v1/invoices', draft);
      if (res.status === 201) ids.push(String(res.json.id));
      return res.status;
    },
  );
  if (creation.failures || ids.length !== DRAFTS + WARM_UP) throw new Error(`${creation.failures} drafts were not created`);
  console.log(`created ${ids.length} drafts in ${creation.seconds.toFixed(1)} s (${server.engine})`);

  const finalize = async (id: string) => (await post(`/v1/invoices/${id}/finalize`, {})).status;
  // Warm the route (JIT, pools) on the first drafts; they are part of the chain verified below.
  const warm = await pool(ids.slice(0, WARM_UP), CLIENTS, finalize);
  const run = await pool(ids.slice(WARM_UP), CLIENTS, finalize);
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

  const orgId = psql(`SELECT org_id FROM documents WHERE id = '${ids[0]}'`);
  const [count, distinct, first, last] = psql(
    `SELECT count(*), count(DISTINCT number), min(substring(number from '[0-9]+$')::int), max(substring(number from '[0-9]+$')::int)
       FROM documents WHERE org_id = '${orgId}' AND type = 'facture' AND finalized_at IS NOT NULL`,
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
}
