import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { Placeholder } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Db } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { TRACKING_SLICES, trackingSliceQuery } from '@/lib/domain/reminders/tracking';
import { fakeContact, percentile } from './lib/fake-contacts';
import { type LoadResult, load, printTable, startServer } from './lib/server';
import { listFromEnv, sizeFromEnv } from './lib/smoke';

/**
 * Issue 6's tracking figure: GET /v1/invoices/reminders/tracking on an org of DOCUMENTS unpaid invoices (sent,
 * due from 120 days ago to 40 days ahead; a tenth partly paid, 1 % fully credited) with four reminders each
 * (200,000 rows: the steps -3, +1, +15 and +30 days from the due date, sent when past, pending otherwise, a
 * tenth of the first steps skipped), seeded by direct SQL into the bench database (the triggers build the
 * ladder states as they would in production). DURATION s at every level of CONNECTIONS, built server, twice: as
 * seeded (the exhausted ladders fill the page: one statement), then with nearly all overdue invoices paid (the
 * three slices of the order read in turn). Target: p95 under 50 ms (printed, never asserted). Then EXPLAIN ANALYZE of
 * the statements. Exits non-zero when a request answers other than 2xx or the first page is not full (20 rows).
 * BENCH_SMOKE=1: 400 invoices for 50 clients, one connection, a few requests.
 */
const DOCUMENTS = sizeFromEnv('DOCUMENTS', 50_000, 400);
const CONTACTS = sizeFromEnv('CONTACTS', 2_000, 50);
const CONNECTIONS = listFromEnv('CONNECTIONS', '1,10', '1');
const DURATION = sizeFromEnv('DURATION', 10, 1);

const server = await startServer(3321);
try {
  if (!server.engine.startsWith('PostgreSQL')) throw new Error('bench:reminders-tracking seeds through SQL: it needs PostgreSQL on 127.0.0.1:5432');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}`;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  // The invoices and credit notes are written as finalized rows directly: the triggers stand aside for those two
  // statements (a document is otherwise inserted as a draft, migration 0016); the reminders' ones run (the ladders).
  const sealed = (sql: string) => psql(`SET session_replication_role = replica; ${sql}`);

  // ── Seed ──────────────────────────────────────────────────────────────────
  const seeding = performance.now();
  for (let offset = 0; offset < CONTACTS; offset += 1000) {
    const rows = Array.from({ length: Math.min(1000, CONTACTS - offset) }, (_, i) => fakeContact(offset + i, 'r'));
    const res = await fetch(`${server.baseUrl}/v1/contacts/import`, { method: 'POST', headers, body: JSON.stringify({ contacts: rows }) });
    if (res.status !== 200) throw new Error(`contacts at ${offset}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
  const orgId = psql('SELECT org_id FROM contacts LIMIT 1');
  // UUIDv7-shaped ids from each document's issue instant, as the app makes them.
  sealed(`
    WITH c AS (
      SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, coalesce(company, first_name || ' ' || last_name) AS name
        FROM contacts WHERE org_id = '${orgId}'
    ),
    g AS (
      SELECT i, current_date - 120 + (i * 160 / ${DOCUMENTS}) AS due_date, 5000 + (i::bigint * 7919) % 500000 AS ht
        FROM generate_series(1, ${DOCUMENTS}) i
    )
    INSERT INTO documents (id, org_id, type, status, status_changed_at, contact_id, number, issue_date, due_date, total_ht, total_tva,
                           total_ttc, client_snapshot, finalized_at, chain_index, content_hash, prev_hash, sent_at, created_at, updated_at)
    SELECT (lpad(to_hex((extract(epoch FROM (g.due_date - 30)::timestamptz) * 1000)::bigint), 12, '0') || '7' || substr(md5(g.i::text), 1, 3)
              || '8' || substr(md5(g.i::text), 4, 15))::uuid,
           '${orgId}', 'facture', 'sent', (g.due_date - 30)::timestamptz, c.id,
           'FAC-' || extract(year FROM g.due_date - 30) || '-' || lpad(g.i::text, 6, '0'),
           g.due_date - 30, g.due_date, g.ht, g.ht / 5, g.ht + g.ht / 5,
           jsonb_build_object('contact_id', c.id, 'name', c.name), (g.due_date - 30)::timestamptz, g.i,
           md5(g.i::text) || md5('h' || g.i), md5((g.i - 1)::text) || md5('h' || (g.i - 1)),
           (g.due_date - 30)::timestamptz, (g.due_date - 30)::timestamptz, (g.due_date - 30)::timestamptz
      FROM g JOIN c ON c.n = g.i % ${CONTACTS}`);
  // A tenth partly paid; 1 % fully credited (finalized credit notes: balance 0, out of tracking).
  psql(`
    INSERT INTO payments (id, org_id, document_id, amount, paid_at, method, created_at)
    SELECT (substr(replace(id::text, '-', ''), 1, 12) || '7' || substr(md5(id::text), 1, 3) || '9' || substr(md5(id::text), 4, 15))::uuid,
           org_id, id, total_ttc / 3, least(issue_date + 20, current_date), 'bank_transfer', created_at
      FROM documents WHERE org_id = '${orgId}' AND chain_index % 10 = 3`);
  sealed(`
    INSERT INTO documents (id, org_id, type, status, contact_id, number, issue_date, total_ht, total_tva, total_ttc, client_snapshot,
                           finalized_at, chain_index, content_hash, prev_hash, avoir_for_id, credit_reason_code, created_at, updated_at)
    SELECT (substr(replace(id::text, '-', ''), 1, 12) || '7' || substr(md5(id::text), 1, 3) || 'a' || substr(md5(id::text), 4, 15))::uuid,
           org_id, 'avoir', 'finalized', contact_id, 'AV-' || number, issue_date + 5, total_ht, total_tva, total_ttc, client_snapshot,
           finalized_at + interval '5 days', ${DOCUMENTS} + chain_index, md5('a' || id::text) || md5('b' || id::text), content_hash, id,
           'billing_error', created_at, created_at
      FROM documents WHERE org_id = '${orgId}' AND type = 'facture' AND chain_index % 100 = 7`);
  // Four reminders per invoice, at 9:00 in Paris: sent when past, pending otherwise; a tenth of the first steps skipped.
  psql(`
    INSERT INTO reminders (id, org_id, document_id, kind, step, offset_days, scheduled_at, status, tone, reason, sent_at, created_at, updated_at)
    SELECT (substr(replace(d.id::text, '-', ''), 1, 12) || '7' || substr(md5(d.id::text || s.step), 1, 3) || 'b' || substr(md5(d.id::text || s.step), 4, 15))::uuid,
           d.org_id, d.id, 'payment', s.step, s.offset_days, x.at,
           CASE WHEN x.at > now() THEN 'pending' WHEN s.step = 0 AND d.chain_index % 10 = 0 THEN 'skipped' ELSE 'sent' END,
           (ARRAY['gentle', 'firm', 'firm', 'final'])[s.step + 1],
           CASE WHEN x.at <= now() AND s.step = 0 AND d.chain_index % 10 = 0 THEN 'past_at_send' END,
           CASE WHEN x.at <= now() AND NOT (s.step = 0 AND d.chain_index % 10 = 0) THEN x.at END,
           d.created_at, d.created_at
      FROM documents d
     CROSS JOIN (VALUES (0, -3), (1, 1), (2, 15), (3, 30)) AS s(step, offset_days)
     CROSS JOIN LATERAL (SELECT ((d.due_date + s.offset_days)::timestamp + time '09:00') AT TIME ZONE 'Europe/Paris' AS at) x
     WHERE d.org_id = '${orgId}' AND d.type = 'facture'`);
  // What autovacuum does within a minute of such a load in production: fresh statistics for the planner.
  for (const table of ['documents', 'payments', 'contacts', 'reminders', 'reminder_ladders']) psql(`VACUUM ANALYZE ${table}`);
  const shape = psql(`
    SELECT count(*) || ' ladders: ' || count(*) FILTER (WHERE open AND exhausted) || ' exhausted, '
           || count(*) FILTER (WHERE open AND NOT exhausted AND due_date < current_date) || ' pending and overdue, '
           || count(*) FILTER (WHERE open AND NOT exhausted AND due_date >= current_date) || ' pending, not due yet'
      FROM reminder_ladders WHERE org_id = '${orgId}'`);
  console.log(
    `seeded ${psql(`SELECT count(*) FROM documents WHERE org_id = '${orgId}' AND type = 'facture'`)} unpaid invoices, ` +
      `${psql(`SELECT count(*) FROM reminders WHERE org_id = '${orgId}'`)} reminders (${shape}), ` +
      `${psql(`SELECT count(*) FROM payments WHERE org_id = '${orgId}'`)} payments, ` +
      `${psql(`SELECT count(*) FROM documents WHERE org_id = '${orgId}' AND type = 'avoir'`)} credit notes ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.engine})`,
  );

  // ── Requests ──────────────────────────────────────────────────────────────
  const url = `${server.baseUrl}/v1/invoices/reminders/tracking`;
  async function measure(scenario: string) {
    // The seeding took longer than the server's keep-alive: the first call may meet a socket it has closed.
    const first = await fetch(url, { headers }).catch(() => fetch(url, { headers }));
    const body = (await first.json()) as { items: Array<Record<string, unknown>> };
    if (first.status !== 200 || body.items.length !== 20) throw new Error(`tracking: ${first.status} ${JSON.stringify(body).slice(0, 300)}`);
    console.log(`\n${scenario}: the page holds ${body.items.filter((r) => r.exhausted).length} exhausted, ` +
      `${body.items.filter((r) => !r.exhausted && Number(r.days_overdue) > 0).length} overdue, ` +
      `${body.items.filter((r) => !r.exhausted && Number(r.days_overdue) === 0).length} not yet due`);
    console.table(
      body.items
        .filter((_, i) => i % 4 === 0)
        .map((r) => ({ number: r.number, due_date: r.due_date, days_overdue: r.days_overdue, balance: r.balance_cents, sent: r.sent_count, pending: r.pending_count, next_at: r.next_at, exhausted: r.exhausted })),
    );
    await load('warm-up', { url, headers, duration: 3, connections: 4 });
    for (const connections of CONNECTIONS) {
      const latencies: number[] = [];
      const result: LoadResult = await load(`GET /v1/invoices/reminders/tracking (${scenario})`, {
        url,
        headers,
        connections,
        duration: DURATION,
        setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms)),
      });
      const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
      console.log(
        `\nengine: ${server.engine}; ${DOCUMENTS} unpaid invoices and their reminders in one org; ${connections} connection(s), ${DURATION} s, ` +
          `built server; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
      );
      printTable([result]);
      console.log(`p95: ${p95} ms (target < 50 ms: ${p95 < 50 ? 'met' : 'MISSED'})`);
    }
  }
  // As seeded: the exhausted ladders alone fill the page (one statement).
  await measure('as seeded');
  // Then the harder case: nearly every overdue invoice paid (a direct status update: the triggers cancel their
  // reminders and close their ladders), 8 exhausted and 8 overdue left, so the three slices are read in turn.
  psql(`
    WITH keep AS (
      (SELECT document_id FROM reminder_ladders WHERE org_id = '${orgId}' AND open AND exhausted ORDER BY document_id LIMIT 8)
      UNION ALL
      (SELECT document_id FROM reminder_ladders WHERE org_id = '${orgId}' AND open AND NOT exhausted AND due_date < current_date ORDER BY document_id LIMIT 8))
    UPDATE documents d SET status = 'paid', status_changed_at = now()
      FROM reminder_ladders l
     WHERE l.document_id = d.id AND l.org_id = '${orgId}' AND l.open AND (l.exhausted OR l.due_date < current_date)
       AND d.id NOT IN (SELECT document_id FROM keep)`);
  for (const table of ['documents', 'reminders', 'reminder_ladders']) psql(`VACUUM ANALYZE ${table}`);
  await measure('few overdue');

  // ── Plans ─────────────────────────────────────────────────────────────────
  // The prepared statements reminderTracking runs in the second case, as the server runs them once they are
  // warm: PREPAREd, with the generic plan PostgreSQL caches for a prepared statement (and its parameters).
  const pg = drizzle(databaseUrl);
  const db = pg as unknown as Db;
  const values: Record<string, string> = { org_id: orgId, today: todayParis() };
  for (const n of TRACKING_SLICES) {
    const query = trackingSliceQuery(db, n).toSQL();
    const args = query.params.map((v) => `'${String(v instanceof Placeholder ? values[v.name] : v).replace(/'/g, "''")}'`).join(', ');
    const plan = psql(
      `SET plan_cache_mode = force_generic_plan; PREPARE slice AS ${query.sql}; EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE slice(${args})`,
    );
    console.log(`\nEXPLAIN ANALYZE EXECUTE, slice ${n} (generic plan):\n${plan}`);
  }
  await pg.$client.end();
} finally {
  await server.stop();
}
