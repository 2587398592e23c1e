import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseFromTemplate, onMaintenanceDatabase } from '@/lib/testing/worker-database';

/**
 * `npm run worker` runs the compiled worker (scripts/build-worker.mjs → dist/worker.mjs) under plain node. This starts
 * it as a separate process on a database of its own (PostgreSQL only: a PGlite database belongs to one process) and
 * follows a recurring invoice through every job it runs there: generated, finalized with its e-invoice validated,
 * rendered (PDF + Factur-X) and e-mailed.
 */
const baseUrl = process.env.TEST_DATABASE_BASE_URL;
const dbName = `paraphe_worker_test_${process.pid}`;

const admin = <T,>(run: (client: import('pg').Client) => Promise<T>) => onMaintenanceDatabase(baseUrl!, run);

describe.skipIf(!baseUrl)('the compiled worker process (PostgreSQL)', () => {
  let worker: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    // This file's own database, for the worker and for this process (setup restores DATABASE_URL after the file).
    process.env.DATABASE_URL = await createDatabaseFromTemplate(baseUrl!, dbName);
    execFileSync('npm', ['run', '-s', 'build:worker'], { stdio: 'inherit' });
  }, 60_000);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
    }
    const { closeDatabase } = await import('@/db/client');
    await closeDatabase();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  }, 30_000);

  it('takes a due recurring invoice from generation to the e-mail, then stops cleanly on SIGTERM', async () => {
    const [{ sql }, { getDb }, { createTestOrg }, { enqueueDueTemplates }, { todayParis }] = await Promise.all([
      import('drizzle-orm'),
      import('@/db/client'),
      import('@/lib/testing/fixtures'),
      import('@/lib/domain/recurring'),
      import('@/lib/platform/dates'),
    ]);
    const db = await getDb();
    const { org } = await createTestOrg('Abonnements du worker');
    const today = todayParis();
    const items = JSON.stringify([
      { kind: 'product', description: 'Abonnement mensuel', details: null, position: 0, quantity: '1', unit: 'MON', unit_price: 4_990, vat_rate: '20.00', vat_category: 'S', vat_exemption_reason: null },
    ]);
    await db.execute(sql`
      WITH c AS (
        INSERT INTO contacts (id, org_id, type, company, email, siret, address, postal_code, city, created_at, updated_at)
        VALUES (gen_random_uuid(), ${org.id}, 'professionnel', 'Abonné SARL', 'compta@abonne.fr', '55203253400646', '1 rue du Client', '69001', 'Lyon', now(), now())
        RETURNING id)
      INSERT INTO recurring_templates (id, org_id, contact_id, frequency, items, next_generation_date, anchor_day, title, operation_nature, auto_send)
      SELECT gen_random_uuid(), ${org.id}, c.id, 'monthly', ${items}::jsonb, ${today}::date, extract(day from ${today}::date)::int, 'Abonnement', 'services', true
        FROM c`);

    // Production requires a sealing certificate and a 32-byte AUTH_SECRET (lib/composition/config-check.ts): the
    // development certificate, made in .data/ if absent, stands for the operator's.
    const { loadSealingIdentity } = await import('@/lib/domain/signature');
    loadSealingIdentity({ NODE_ENV: 'development', SIGNATURE_CERT_PATH: '' });
    const production = { NODE_ENV: 'production' as const, AUTH_SECRET: 'worker-test-secret-of-32-bytes-or-more', SIGNATURE_CERT_PATH: '.data/signature-seal.p12', SIGNATURE_CERT_PASSWORD: 'paraphe-development' };
    worker = spawn(process.execPath, ['dist/worker.mjs'], { env: { ...process.env, ...production }, stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    worker.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const started = Date.now();
    while (!output.includes('worker started') && worker.exitCode === null && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('worker started (e-invoice validation:');

    expect(await enqueueDueTemplates(db, { orgId: org.id })).toBe(1);
    type Row = { number: string | null; status: string; render_status: string; total_ttc: number; email_status: string | null };
    let row: Row | undefined;
    while (Date.now() - started < 90_000) {
      const result = (await db.execute(sql`
        SELECT d.number, d.status, coalesce(r.status, 'pending') AS render_status, d.total_ttc::int AS total_ttc, e.status AS email_status
          FROM documents d LEFT JOIN document_renders r ON r.document_id = d.id LEFT JOIN emails e ON e.document_id = d.id AND e.template = 'document_sent'
         WHERE d.org_id = ${org.id}`)) as unknown as { rows: Row[] };
      row = result.rows[0];
      if (row?.render_status === 'ready' && row.email_status === 'sent') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(row).toMatchObject({ status: 'sent', render_status: 'ready', total_ttc: 5_988, email_status: 'sent' });
    expect(row!.number).toBe(`FAC-${today.slice(0, 4)}-00001`);

    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
    expect(output).toMatch(/worker stopping: 1 e-invoice validations/);
  }, 120_000);
});
