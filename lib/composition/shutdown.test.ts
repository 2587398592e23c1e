import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabaseFromTemplate, onMaintenanceDatabase } from '@/lib/testing/worker-database';

/**
 * SIGTERM to a worker process (scripts/worker.ts) while it renders PDFs, delivers webhooks to a slow receiver and runs
 * a recurring run; a second worker then drains the queue. Nothing lost, nothing done twice. PostgreSQL: a database of
 * this file's own, shared by this process and the workers. PGlite: a data directory of its own, which this process
 * opens only while no worker runs (seeded before, inspected after).
 */
const baseUrl = process.env.TEST_DATABASE_BASE_URL;
const dbName = `sigterm_shutdown_${process.pid}`;
const pgliteDir = baseUrl ? null : mkdtempSync(path.join(tmpdir(), 'sigterm-pglite-'));
const GRACE = 2;

const admin = <T,>(run: (client: import('pg').Client) => Promise<T>) => onMaintenanceDatabase(baseUrl!, run);

beforeAll(async () => {
  const { closeDatabase } = await import('@/db/client');
  await closeDatabase();
  if (baseUrl) process.env.DATABASE_URL = await createDatabaseFromTemplate(baseUrl, dbName);
  else process.env.PGLITE_DIR = pgliteDir!;
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
});

afterAll(async () => {
  const { closeDatabase } = await import('@/db/client');
  await closeDatabase();
  if (baseUrl) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  else rmSync(pgliteDir!, { recursive: true, force: true });
}, 30_000);

interface Worker {
  child: ChildProcess;
  output: () => string;
}

async function startWorker(): Promise<Worker> {
  const { closeDatabase } = await import('@/db/client');
  // PGlite: the worker's directory is never open in two processes.
  if (!baseUrl) await closeDatabase();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, SHUTDOWN_GRACE_SECONDS: String(GRACE), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const started = Date.now();
  while (!output.includes('worker started') && child.exitCode === null && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 50));
  expect(output).toContain('worker started');
  return { child, output: () => output };
}

/** SIGTERM, then the exit: its code and how long it took. */
async function stopWorker(worker: Worker): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  const exited = once(worker.child, 'exit');
  worker.child.kill('SIGTERM');
  const [code] = await exited;
  return { code: code as number | null, ms: Date.now() - sent };
}

/** The JSON log lines of a worker with this message. */
const lines = (worker: Worker, msg: string) =>
  worker
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);

it('SIGTERM during renders, webhook deliveries and a recurring run: exit 0 within the grace, then nothing lost, nothing done twice', async () => {
  const [{ sql }, { getDb, getDatabase }, { createTestOrg }, { billingContext, line }, { createEndpoint }, { startReceiver }, { enqueueDueTemplates }, { todayParis }, { prepareQueues }, { jobs }] =
    await Promise.all([
      import('drizzle-orm'),
      import('@/db/client'),
      import('@/lib/testing/fixtures'),
      import('@/lib/domain/documents/testing'),
      import('@/lib/domain/webhooks'),
      import('@/lib/domain/webhooks/testing'),
      import('@/lib/domain/recurring'),
      import('@/lib/platform/dates'),
      import('@/lib/platform/jobs'),
      import('@/lib/composition/modules'),
    ]);
  // The receiver answers after 800 ms: within a batch's DETACH_AFTER_MS (lib/domain/webhooks/deliver.ts), so each
  // delivery is a running job at the SIGTERM (a slower one is detached from its job, see the report in docs).
  const receivedAt = new Map<string, number[]>();
  const receiver = await startReceiver([
    (req, res) => {
      const id = String(req.headers['webhook-id']);
      receivedAt.set(id, [...(receivedAt.get(id) ?? []), Date.now()]);
      setTimeout(() => res.end('ok'), 800);
    },
  ]);
  try {
    const database = await getDatabase();
    await prepareQueues(database, jobs);
    const db = await getDb();
    const org = await createTestOrg('Arrêt en douceur');
    await createEndpoint(db, org.org.id, { url: receiver.url, events: ['invoice.finalized'], enabled: true });
    const api = await billingContext(org);
    const contact = await api.contact();
    const DIRECT = 4;
    for (let i = 0; i < DIRECT; i++) await api.issued({ type: 'facture', contact_id: contact.id, items: [line(`Prestation ${i + 1}`, '1', 10_000 * (i + 1))] });
    const RECURRING = 3;
    const today = todayParis();
    const items = JSON.stringify([
      { kind: 'product', description: 'Abonnement', details: null, position: 0, quantity: '1', unit: 'MON', unit_price: 4_990, vat_rate: '20.00', vat_category: 'S', vat_exemption_reason: null },
    ]);
    for (let i = 0; i < RECURRING; i++) {
      await db.execute(sql`
        INSERT INTO recurring_templates (id, org_id, contact_id, frequency, items, next_generation_date, anchor_day, title, operation_nature, auto_send)
        VALUES (gen_random_uuid(), ${org.org.id}, ${contact.id}, 'monthly', ${items}::jsonb, ${today}::date, extract(day from ${today}::date)::int, ${`Abonnement ${i + 1}`}, 'services', false)`);
    }
    expect(await enqueueDueTemplates(db, { orgId: org.org.id })).toBe(RECURRING);
    // The recurring run makes drafts (auto_send off): counted by their generations, not numbered.
    const TOTAL = DIRECT;

    // The first worker: SIGTERM once deliveries are in flight at the receiver (renders and the run are going too).
    const first = await startWorker();
    const t0 = Date.now();
    while (receivedAt.size === 0 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 20));
    expect(receivedAt.size).toBeGreaterThan(0);
    const stopped = await stopWorker(first);
    const firstExitedAt = Date.now();
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan((GRACE + 5) * 1000);
    expect(lines(first, 'stopping')).toHaveLength(1);
    expect(lines(first, 'stopping')[0]).toMatchObject({ signal: 'SIGTERM', grace_seconds: GRACE });
    const [summary] = lines(first, 'job workers stopped');
    expect(summary).toBeDefined();
    expect(lines(first, 'stopped')[0]).toMatchObject({ exit_code: 0 });
    console.log('first worker stop:', JSON.stringify({ ms: stopped.ms, finished: summary!.finished, handed_back: summary!.handed_back_kinds }));

    // The second worker drains the queue: started again until everything is done (PGlite: inspected between runs).
    type Counts = { finalized: number; numbers: string[]; ready: number; renders: number; deliveries: number; succeeded: number; generated: number; drafts: number; live: number };
    const inspect = async (): Promise<Counts> => {
      const db = await getDb();
      const one = async <T,>(q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
      const docs = await one<{ number: string }>(sql`SELECT number FROM documents WHERE org_id = ${org.org.id} AND number IS NOT NULL ORDER BY number`);
      const [r] = await one<{ ready: number; renders: number }>(sql`
        SELECT count(*) FILTER (WHERE r.status = 'ready')::int AS ready, count(r.document_id)::int AS renders
          FROM documents d LEFT JOIN document_renders r ON r.document_id = d.id WHERE d.org_id = ${org.org.id} AND d.number IS NOT NULL`);
      const [w] = await one<{ deliveries: number; succeeded: number }>(sql`
        SELECT count(*)::int AS deliveries, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded FROM webhook_deliveries WHERE org_id = ${org.org.id}`);
      const [g] = await one<{ generated: number; drafts: number }>(sql`
        SELECT count(*)::int AS generated, count(DISTINCT g.document_id)::int AS drafts FROM recurring_generations g JOIN documents d ON d.id = g.document_id
         WHERE g.org_id = ${org.org.id} AND g.status = 'generated' AND d.number IS NULL`);
      const [l] = await one<{ live: number }>(sql`SELECT count(*)::int AS live FROM pgboss.job WHERE name IN ('pdf.render-document', 'webhooks.deliver', 'recurring.generate') AND state IN ('created', 'retry', 'active') AND start_after <= now() + interval '5 seconds'`);
      return { finalized: docs.length, numbers: docs.map((d) => d.number), ready: r!.ready, renders: r!.renders, deliveries: w!.deliveries, succeeded: w!.succeeded, generated: g!.generated, drafts: g!.drafts, live: l!.live };
    };
    const done = (c: Counts) => c.finalized === TOTAL && c.ready === TOTAL && c.deliveries === TOTAL && c.succeeded === TOTAL && c.generated === RECURRING && c.drafts === RECURRING && c.live === 0;
    let counts = await inspect();
    for (let run = 0; run < 3 && !done(counts); run++) {
      const second = await startWorker();
      const until = Date.now() + 8_000;
      if (baseUrl) while (Date.now() < until && !done(await inspect())) await new Promise((r) => setTimeout(r, 200));
      else await new Promise((r) => setTimeout(r, 6_000));
      const end = await stopWorker(second);
      expect(end.code).toBe(0);
      counts = await inspect();
      console.log('after drain run', run + 1, JSON.stringify({ ...counts, numbers: counts.numbers.length }));
    }

    // Nothing lost: every invoice finalized, numbered without a gap, with its PDF stored, its webhook delivered.
    const year = today.slice(0, 4);
    expect(counts.numbers).toEqual(Array.from({ length: TOTAL }, (_, i) => `FAC-${year}-${String(i + 1).padStart(5, '0')}`));
    expect(counts).toMatchObject({ finalized: TOTAL, ready: TOTAL, renders: TOTAL, deliveries: TOTAL, succeeded: TOTAL, generated: RECURRING, drafts: RECURRING, live: 0 });
    // Nothing done twice: one generation per template (above), one render row per document (above), and each event
    // received once — or, for an attempt cut by the stop, again with the same webhook-id (at-least-once: the receiver
    // dedupes by it), its first receipt before the first worker exited, the delivery row succeeded once.
    const { rows: events } = (await (await getDb()).execute(sql`SELECT event_id FROM webhook_deliveries WHERE org_id = ${org.org.id}`)) as unknown as { rows: Array<{ event_id: string }> };
    expect(new Set(receivedAt.keys())).toEqual(new Set(events.map((e) => e.event_id)));
    for (const [, at] of receivedAt) {
      expect(at.length).toBeLessThanOrEqual(2);
      if (at.length === 2) expect(at[0]!).toBeLessThan(firstExitedAt);
    }
    console.log('drained:', JSON.stringify({ twice: [...receivedAt.values()].filter((a) => a.length > 1).length }));
  } finally {
    await receiver.close();
  }
}, 120_000);
