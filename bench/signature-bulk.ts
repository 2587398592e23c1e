import { execSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { sizeFromEnv } from './lib/smoke';

/**
 * Issue 19's bulk figures, in-process: ROUNDS requests of POST /v1/signature/envelopes/bulk with RECIPIENTS recipients
 * each (through the route handler, with the app's job workers running as in a server): the request's time (p50 and
 * p95; target p50 under 1 s on PostgreSQL), and the time from the request until all its signature e-mails are in the
 * outbox (status sent, outbox transport). PostgreSQL (a fresh database on 127.0.0.1:5432) unless BENCH_ENGINE=pglite
 * or PostgreSQL does not answer; then PGlite in memory. Run: `npm run bench:signature-bulk`. A request answering other
 * than 200 or not sending every recipient, or e-mails missing from the outbox after the deadline, exits non-zero.
 * BENCH_SMOKE=1: one request of 3 recipients, 60 s at most for its e-mails.
 */
const RECIPIENTS = sizeFromEnv('RECIPIENTS', 100, 3);
const ROUNDS = sizeFromEnv('ROUNDS', 10, 1);
const OUTBOX_TIMEOUT_MS = sizeFromEnv('OUTBOX_TIMEOUT_MS', 300_000, 60_000);

const canReachPostgres = () => {
  try {
    execSync('psql -h 127.0.0.1 -U postgres -d postgres -qtc "select 1"', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const dbName = `paraphe_bench_bulk_${process.pid}`;
const usePg = process.env.BENCH_ENGINE !== 'pglite' && canReachPostgres();
if (usePg) {
  execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${dbName}"`);
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${dbName}`;
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = 'memory';
}
delete process.env.RESEND_API_KEY;
// The bench's own calls come from one key: its quota must not be what is measured.
process.env.RATE_LIMIT_POINTS = '1000000';
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';

const { sql } = await import('drizzle-orm');
const { closeDatabase, getDatabase } = await import('@/db/client');
await import('@/lib/composition/modules');
const { installedModules } = await import('@/lib/platform/manifest');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { call } = await import('@/lib/testing/http');
const { signatureDocuments } = await import('@/db/schema');
const { startWorkers, stopQueue } = await import('@/lib/platform/jobs/queue');
const bulk = await import('@/app/v1/signature/envelopes/bulk/route');

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const database = await getDatabase();
const { db } = database;
const engine = usePg ? 'PostgreSQL 15' : 'PGlite';
try {
  const org = await createTestOrg('Bench Envoi groupé');
  const [doc] = await db
    .insert(signatureDocuments)
    .values({ org_id: org.org.id, name: 'reglement.pdf', storage_key: `signature/${org.org.id}/documents/bench.pdf`, sha256: 'e'.repeat(64), page_count: 3, byte_size: 40_000 })
    .returning();
  const token = await org.key();
  // The workers of every job kind, as `npm start` runs them inline.
  await startWorkers(installedModules().flatMap((m) => m.jobs ?? []));

  const requestMs: number[] = [];
  const outboxMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `r${round}-${i}@bench-bulk.example`, full_name: `Destinataire ${round}-${i}` }));
    const started = performance.now();
    const res = await call(bulk.POST, 'POST', '/v1/signature/envelopes/bulk', {
      token,
      body: { source_document_id: doc!.id, subject: 'Règlement intérieur 2027', recipients },
    });
    requestMs.push(performance.now() - started);
    if (res.status !== 200 || res.body.sent_count !== RECIPIENTS) throw new Error(`bulk: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const deadline = Date.now() + OUTBOX_TIMEOUT_MS;
    for (;;) {
      const [row] = (
        (await db.execute(
          sql`SELECT count(*) AS n FROM emails WHERE org_id = ${org.org.id} AND template = 'signature_request' AND status = 'sent' AND transport = 'outbox' AND "to"[1] LIKE ${`r${round}-%`}`,
        )) as unknown as { rows: Array<{ n: string | number }> }
      ).rows;
      if (Number(row?.n) >= RECIPIENTS) break;
      if (Date.now() > deadline) throw new Error(`round ${round}: only ${row?.n} of ${RECIPIENTS} e-mails in the outbox after ${OUTBOX_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    outboxMs.push(performance.now() - started);
    console.log(`round ${round + 1}: request ${requestMs.at(-1)!.toFixed(0)} ms, all ${RECIPIENTS} e-mails in the outbox after ${(outboxMs.at(-1)! / 1000).toFixed(2)} s`);
  }
  const r = (ms: number) => Math.round(ms);
  console.log(`\nengine: ${engine}; ${ROUNDS} requests of ${RECIPIENTS} recipients; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`);
  console.table([
    { measure: 'POST /v1/signature/envelopes/bulk (ms)', p50: r(percentile(requestMs, 50)), p95: r(percentile(requestMs, 95)), max: r(Math.max(...requestMs)) },
    { measure: `request → all ${RECIPIENTS} e-mails in the outbox (ms)`, p50: r(percentile(outboxMs, 50)), p95: r(percentile(outboxMs, 95)), max: r(Math.max(...outboxMs)) },
  ]);
  console.log(`request p50 ${r(percentile(requestMs, 50))} ms (target < 1000 ms: ${percentile(requestMs, 50) < 1000 ? 'met' : 'MISSED'})`);
} finally {
  await stopQueue();
  await closeDatabase();
  if (usePg) execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)"`);
}
