import { execSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { failIf, sizeFromEnv } from './lib/smoke';

/**
 * Issue 6's dispatcher figure, in-process (the dispatcher is a job, not an HTTP call): REMINDERS reminders due
 * now on as many unpaid invoices (seeded by SQL), outbox transport; the time for the dispatcher to claim them all,
 * render and record their e-mails and hand them to the e-mail queue. Target: under 10 s. Then, for information,
 * the time for the `email.send` workers (WORKERS of them, pg-boss) to carry them all to `sent`. PostgreSQL (a fresh
 * database on 127.0.0.1:5432) unless BENCH_ENGINE=pglite or PostgreSQL does not answer; then PGlite in memory.
 * React runs in production mode, as under `next start`. Exits non-zero when a reminder is left pending or without its
 * e-mail, or an e-mail is not sent by the workers in time. BENCH_SMOKE=1: 5 reminders, one worker.
 */
const REMINDERS = sizeFromEnv('REMINDERS', 1000, 5);
const WORKERS = sizeFromEnv('WORKERS', 4, 1);
const LANES = process.env.LANES ? Number(process.env.LANES) : undefined;

const canReachPostgres = () => {
  try {
    execSync('psql -h 127.0.0.1 -U postgres -d postgres -qtc "select 1"', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const dbName = `paraphe_bench_dispatch_${process.pid}`;
const usePg = process.env.BENCH_ENGINE !== 'pglite' && canReachPostgres();
if (usePg) {
  execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${dbName}"`);
  process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${dbName}`;
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = 'memory';
}
delete process.env.RESEND_API_KEY;
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';

const { sql } = await import('drizzle-orm');
const { closeDatabase, getDatabase } = await import('@/db/client');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { dispatchDueReminders } = await import('@/lib/domain/reminders/dispatch');
const { sendEmailJob } = await import('@/lib/platform/email/jobs');
const { startWorkers, stopQueue, getQueue, prepareQueues } = await import('@/lib/platform/jobs/queue');
const { jobs } = await import('@/lib/composition/modules');

const database = await getDatabase();
const { db } = database;
const engine = usePg ? 'PostgreSQL 15' : 'PGlite';
try {
  // ── Seed: one client per invoice, each invoice 20 days overdue with its +15 step due now ──────────────
  const org = await createTestOrg('Bench Relances');
  const orgId = org.org.id;
  const seeding = performance.now();
  await db.execute(sql`
    INSERT INTO contacts (id, org_id, type, company, email, created_at, updated_at)
    SELECT (lpad(to_hex(i), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, ${orgId}, 'professionnel',
           'Client ' || i || ' SARL', 'compta' || i || '@client-bench.fr', now(), now()
      FROM generate_series(1, ${REMINDERS}) i`);
  // Written as finalized rows directly: the triggers stand aside for this transaction (a document is otherwise
  // inserted as a draft, migration 0016).
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`
    INSERT INTO documents (id, org_id, type, status, contact_id, number, issue_date, due_date, total_ht, total_tva, total_ttc,
                           client_snapshot, seller_snapshot, finalized_at, chain_index, content_hash, sent_at, created_at, updated_at)
    SELECT (lpad(to_hex(i), 8, '0') || '-0000-7000-9000-' || lpad(to_hex(i), 12, '0'))::uuid, ${orgId}, 'facture', 'sent',
           (lpad(to_hex(i), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
           'FAC-2026-' || lpad(i::text, 5, '0'), current_date - 50, current_date - 20, 10000 + i, (10000 + i) / 5, (10000 + i) * 6 / 5,
           jsonb_build_object('name', 'Client ' || i || ' SARL', 'type', 'professionnel'),
           jsonb_build_object('name', 'Bench Relances SAS', 'penalty_rate', '12.5'),
           now() - interval '50 days', i, md5(i::text) || md5('h' || i), now() - interval '50 days', now(), now()
      FROM generate_series(1, ${REMINDERS}) i`);
  });
  await db.execute(sql`
    INSERT INTO reminders (id, org_id, document_id, kind, step, offset_days, scheduled_at, status, tone, created_at, updated_at)
    SELECT (lpad(to_hex(i), 8, '0') || '-0000-7000-a000-' || lpad(to_hex(i), 12, '0'))::uuid, ${orgId},
           (lpad(to_hex(i), 8, '0') || '-0000-7000-9000-' || lpad(to_hex(i), 12, '0'))::uuid,
           'payment', 3, 15, now() - interval '1 minute', 'pending', 'firm', now(), now()
      FROM generate_series(1, ${REMINDERS}) i`);
  if (usePg) await db.execute(sql`VACUUM ANALYZE reminders`);
  console.log(`seeded ${REMINDERS} due reminders on as many unpaid invoices in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${engine})`);
  // The queue is started before the clock runs, as it is in a running server, its queues created as the server does at
  // start: a job written for a kind whose queue does not exist yet is dropped without a word (pg-boss 10's insert).
  await prepareQueues(database, jobs);
  await getQueue();

  // ── Dispatch ──────────────────────────────────────────────────────────────
  const started = performance.now();
  const cpu = process.cpuUsage();
  const summary = await dispatchDueReminders(db, { lanes: LANES });
  const dispatchMs = performance.now() - started;
  const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
  const [counts] = (
    (await db.execute(sql`
      SELECT count(*) FILTER (WHERE r.status = 'sent' AND r.email_id IS NOT NULL) AS sent,
             count(*) FILTER (WHERE r.status = 'pending') AS pending,
             (SELECT count(*) FROM emails e WHERE e.org_id = ${orgId} AND e.template = 'payment_reminder' AND e.transport = 'outbox') AS emails
        FROM reminders r WHERE r.org_id = ${orgId}`)) as unknown as { rows: Array<Record<string, unknown>> }
  ).rows;
  console.log(
    `\nengine: ${engine}; ${REMINDERS} due reminders, outbox transport, one dispatcher run (batches of 50); ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
  );
  console.table([
    {
      step: 'dispatcher: claim, render and record the e-mails, hand them to the queue',
      'time s': Math.round(dispatchMs / 10) / 100,
      'node CPU s': Math.round(cpuMs / 10) / 100,
      'per reminder ms': Math.round((dispatchMs / REMINDERS) * 100) / 100,
      ...summary,
      'reminders sent': Number(counts?.sent),
      'still pending': Number(counts?.pending),
      'e-mails recorded': Number(counts?.emails),
    },
  ]);
  console.log(`dispatch of ${REMINDERS} reminders: ${(dispatchMs / 1000).toFixed(2)} s (target < 10 s: ${dispatchMs < 10_000 ? 'met' : 'MISSED'})`);
  failIf(Number(counts?.sent) !== REMINDERS || Number(counts?.pending) !== 0 || Number(counts?.emails) !== REMINDERS,
    `after the dispatch: ${counts?.sent} reminders sent, ${counts?.pending} pending, ${counts?.emails} e-mails recorded (${REMINDERS} due)`);

  // ── Delivery by the e-mail workers (information) ──────────────────────────
  const delivering = performance.now();
  await startWorkers(Array.from({ length: WORKERS }, () => sendEmailJob) as never);
  const deadline = Date.now() + sizeFromEnv('DELIVERY_TIMEOUT_MS', 300_000, 60_000);
  let sent = 0;
  while (Date.now() < deadline) {
    const [row] = (
      (await db.execute(sql`SELECT count(*) AS n FROM emails WHERE org_id = ${orgId} AND template = 'payment_reminder' AND status = 'sent'`)) as unknown as {
        rows: Array<{ n: string | number }>;
      }
    ).rows;
    sent = Number(row?.n);
    if (sent >= REMINDERS) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(
    `delivery by ${WORKERS} email.send worker(s) (outbox): ${sent}/${REMINDERS} e-mails sent in ${((performance.now() - delivering) / 1000).toFixed(1)} s`,
  );
  failIf(sent < REMINDERS, `only ${sent} of ${REMINDERS} reminder e-mails were sent by the workers`);
} finally {
  await stopQueue();
  await closeDatabase();
  if (usePg) execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)"`);
}
