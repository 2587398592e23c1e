import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { seedDocumentsSql } from './lib/billing-seed';
import { fakeContact, percentile } from './lib/fake-contacts';
import { type LoadResult, load, printTable, startServer } from './lib/server';
import { failIf, listFromEnv, sizeFromEnv } from './lib/smoke';

/**
 * Issue 4's list and statistics figures: an org of DOCUMENTS billing documents (quotes, invoices, deposit
 * invoices and credit notes over three years, most of them finalized and paid, as a long-lived business has)
 * for CONTACTS clients, seeded by direct SQL into the bench database; then GET /v1/invoices with several filter
 * combinations and the stats and revenue endpoints, DURATION s each at every level of CONNECTIONS. Targets:
 * list p95 under 50 ms, stats and revenue under 200 ms (printed, never asserted). Then EXPLAIN ANALYZE of the statements
 * behind them. Exits non-zero when a request answers other than 2xx or the seed is short. BENCH_SMOKE=1: 2,000 documents
 * for 50 clients, one connection, a few requests per endpoint.
 */
const DOCUMENTS = sizeFromEnv('DOCUMENTS', 200_000, 2_000);
const CONTACTS = sizeFromEnv('CONTACTS', 2_000, 50);
const CONNECTIONS = listFromEnv('CONNECTIONS', '1,10', '1');
const DURATION = sizeFromEnv('DURATION', 8, 1);

const server = await startServer(3311);
try {
  if (!server.engine.startsWith('PostgreSQL')) throw new Error('bench:billing-list seeds through SQL: it needs PostgreSQL on 127.0.0.1:5432');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}`;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  // A kept-alive socket may have been closed by the server during the long SQL seeding: one retry.
  const get = (url: string) => fetch(url, { headers }).catch(() => fetch(url, { headers }));

  // ── Seed ──────────────────────────────────────────────────────────────────
  const seeding = performance.now();
  for (let offset = 0; offset < CONTACTS; offset += 1000) {
    const rows = Array.from({ length: Math.min(1000, CONTACTS - offset) }, (_, i) => fakeContact(offset + i, 'b'));
    const res = await fetch(`${server.baseUrl}/v1/contacts/import`, { method: 'POST', headers, body: JSON.stringify({ contacts: rows }) });
    if (res.status !== 200) throw new Error(`contacts at ${offset}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }
  const orgId = psql('SELECT org_id FROM contacts LIMIT 1');

  for (const statement of seedDocumentsSql(orgId, DOCUMENTS, CONTACTS)) psql(statement);
  // What autovacuum does within a minute of such a load in production: fresh statistics for the planner.
  for (const table of ['documents', 'payments', 'contacts']) psql(`VACUUM ANALYZE ${table}`);
  const counts = psql(`SELECT count(*) || ' documents, ' || count(*) FILTER (WHERE status = 'draft') || ' drafts' FROM documents WHERE org_id = '${orgId}'`);
  const payments = psql(`SELECT count(*) FROM payments WHERE org_id = '${orgId}'`);
  failIf(Number(psql(`SELECT count(*) FROM documents WHERE org_id = '${orgId}'`)) !== DOCUMENTS, `the seed is not ${DOCUMENTS} documents: ${counts}`);
  console.log(`seeded ${counts}, ${payments} payments, ${CONTACTS} contacts in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.engine})`);

  // ── Requests ──────────────────────────────────────────────────────────────
  const contactId = psql(`SELECT contact_id FROM documents WHERE org_id = '${orgId}' GROUP BY 1 ORDER BY 1 LIMIT 1`);
  const someNumber = psql(`SELECT number FROM documents WHERE org_id = '${orgId}' AND type = 'facture' AND number IS NOT NULL ORDER BY id LIMIT 1 OFFSET ${Math.floor(DOCUMENTS / 4)}`);
  const month = psql(`SELECT to_char(current_date - 200, 'YYYY-MM')`);
  const monthEnd = psql(`SELECT (date_trunc('month', current_date - 200) + interval '1 month - 1 day')::date`);
  const first = (await (await get(`${server.baseUrl}/v1/invoices`)).json()) as { meta: { next_cursor: string } };

  const LIST: Array<[label: string, query: string]> = [
    ['first page, no filter', ''],
    ['second page (cursor)', `cursor=${first.meta.next_cursor}`],
    ['type=facture', 'type=facture'],
    ['status=sent', 'status=sent'],
    ['type=devis&status=expired', 'type=devis&status=expired'],
    ['status=draft', 'status=draft'],
    ['one client', `contact_id=${contactId}`],
    ['issue dates: one month', `issue_date_from=${month}-01&issue_date_to=${monthEnd}`],
    ['overdue=true', 'overdue=true'],
    ['type=facture&overdue=true&one client', `type=facture&overdue=true&contact_id=${contactId}`],
    ['q=client name', 'q=boulangerie'],
    ['q=one number', `q=${someNumber}`],
  ];
  const STATS: Array<[label: string, path: string]> = [
    ['stats (this year)', '/v1/invoices/stats'],
    ['stats (three years)', `/v1/invoices/stats?from=${psql('SELECT current_date - 1095')}`],
    ['revenue (12 months)', '/v1/invoices/revenue'],
    ['revenue (36 months)', `/v1/invoices/revenue?from=${psql("SELECT to_char(current_date - 1095, 'YYYY-MM-01')")}`],
    ['revenue by client', '/v1/invoices/revenue/by-client'],
    ['client summary', `/v1/invoices/client-summary?contact_id=${contactId}`],
  ];
  const targets: Array<[label: string, url: string, target: number]> = [
    ...LIST.map(([label, q]): [string, string, number] => [`GET /v1/invoices ${label}`, `${server.baseUrl}/v1/invoices${q ? `?${q}` : ''}`, 50]),
    ...STATS.map(([label, path]): [string, string, number] => [label, `${server.baseUrl}${path}`, 200]),
  ];
  for (const [label, url] of targets) {
    const res = await get(url);
    if (res.status !== 200) throw new Error(`${label}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const body = (await res.json()) as { data?: unknown[] };
    if (body.data) console.log(`${label}: ${body.data.length} on the page`);
  }
  await load('warm-up', { url: targets[0]![1], headers, duration: 3, connections: 4 });

  for (const connections of CONNECTIONS) {
    const rows: LoadResult[] = [];
    const p95s: Array<{ endpoint: string; 'p95 ms': number; target: string }> = [];
    for (const [label, url, target] of targets) {
      const latencies: number[] = [];
      const result = await load(label, {
        url,
        headers,
        connections,
        duration: DURATION,
        setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms)),
      });
      rows.push(result);
      const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
      p95s.push({ endpoint: label, 'p95 ms': p95, target: `${p95 < target ? 'met' : 'MISSED'} (< ${target})` });
    }
    console.log(
      `\nengine: ${server.engine}; ${DOCUMENTS} documents in one org; ${connections} connection(s), ${DURATION} s per request, built server; ` +
        `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
    printTable(rows);
    console.table(p95s);
  }

  // ── Plans ─────────────────────────────────────────────────────────────────
  // The statements listDocuments and the stats send (drizzle), values inlined.
  const today = psql('SELECT current_date');
  const yearStart = `${today.slice(0, 4)}-01-01`;
  const listSql = (where: string) => `SELECT * FROM documents d WHERE d.org_id = '${orgId}' ${where} ORDER BY d.id DESC LIMIT 51`;
  const q = (text: string) =>
    `AND (lower(coalesce(d.number, '') || ' ' || coalesce(d.title, '') || ' ' || coalesce(d.client_snapshot->>'name', '')) LIKE '%${text}%'
          OR (d.finalized_at IS NULL AND d.contact_id = any(array(SELECT id FROM contacts WHERE org_id = '${orgId}' AND search LIKE '%${text}%'))))`;
  const plans: Array<[string, string]> = [
    ['list, no filter', listSql('')],
    ['list, overdue=true', listSql(`AND d.type IN ('facture', 'acompte') AND d.status IN ('finalized', 'sent') AND d.due_date < '${today}'`)],
    ['list, q=one number', listSql(q(someNumber.toLowerCase()))],
    ['list, q=client name', listSql(q('boulangerie'))],
    [
      'stats: sales and quotes of the year',
      `SELECT type, status, count(*), sum(total_ht), sum(total_tva), sum(total_ttc) FROM documents
        WHERE org_id = '${orgId}' AND finalized_at IS NOT NULL AND issue_date BETWEEN '${yearStart}' AND '${today}' GROUP BY type, status`,
    ],
    ['stats: cash collected this year', `SELECT count(*), coalesce(sum(amount), 0) FROM payments WHERE org_id = '${orgId}' AND paid_at BETWEEN '${yearStart}' AND '${today}'`],
    [
      'stats: outstanding and overdue balances',
      `SELECT count(*), coalesce(sum(bal), 0), count(*) FILTER (WHERE due_date < '${today}'), coalesce(sum(bal) FILTER (WHERE due_date < '${today}'), 0) FROM (
         SELECT d.due_date, b.bal FROM documents d
         CROSS JOIN LATERAL (SELECT ((d.total_ttc - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.org_id = d.org_id AND p.document_id = d.id), 0))
                                     - coalesce((SELECT sum(c.total_ttc) FROM documents c WHERE c.avoir_for_id = d.id AND c.status <> 'cancelled'
                                                 AND c.finalized_at IS NOT NULL AND c.org_id = d.org_id), 0)) AS bal OFFSET 0) b
         WHERE d.org_id = '${orgId}' AND d.type IN ('facture', 'acompte') AND d.status IN ('finalized', 'sent')) x
       WHERE bal > 0`,
    ],
    [
      'revenue, 12 months (by day, summed into months by the service)',
      `SELECT issue_date::text, type = 'avoir', count(*), sum(total_ht), sum(total_tva), sum(total_ttc) FROM documents
        WHERE org_id = '${orgId}' AND finalized_at IS NOT NULL AND type IN ('facture', 'acompte', 'avoir')
          AND issue_date BETWEEN (date_trunc('month', current_date) - interval '11 months')::date AND current_date GROUP BY issue_date, type = 'avoir'`,
    ],
  ];
  for (const [label, sql] of plans) console.log(`\nEXPLAIN ANALYZE, ${label}:\n${psql(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`)}`);
} finally {
  await server.stop();
}
