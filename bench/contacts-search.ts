import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fakeContact, percentile } from './lib/fake-contacts';
import { load, printTable, startServer } from './lib/server';
import { failIf, listFromEnv, sizeFromEnv } from './lib/smoke';

/**
 * Issue 3's search figure: GET /v1/contacts?q=… on an org of 100,000 contacts (seeded through the import
 * endpoint, 1000 rows per request), several realistic queries, for DURATION s each at every level of
 * CONNECTIONS (one person searching, then ten at once). Target: p95 under 50 ms. On PostgreSQL it also
 * prints the plans of the list query (EXPLAIN ANALYZE), to show which index serves it. Exits non-zero when a search
 * answers other than 2xx, finds nothing for "martin" or something for "xylophone". BENCH_SMOKE=1: 1,000 contacts,
 * one connection, a few requests per query.
 */
const CONTACTS = sizeFromEnv('CONTACTS', 100_000, 1_000);
const CONNECTIONS = listFromEnv('CONNECTIONS', '1,10', '1');
const DURATION = sizeFromEnv('DURATION', 8, 1);

const QUERIES: Array<[label: string, q: string]> = [
  ['common last name', 'martin'],
  ['accented, typed without accent', 'elodie'],
  ['accented, typed with accent', 'Dupré'],
  ['trade in company names', 'boulangerie'],
  ['e-mail domain', 'laposte'],
  ['one person (e-mail part)', 'noemie.guerin.s4'],
  ['no match', 'xylophone'],
];

const server = await startServer(3303);
try {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const seeding = performance.now();
  for (let offset = 0; offset < CONTACTS; offset += 1000) {
    const rows = Array.from({ length: Math.min(1000, CONTACTS - offset) }, (_, i) => fakeContact(offset + i, 's'));
    const res = await fetch(`${server.baseUrl}/v1/contacts/import`, { method: 'POST', headers, body: JSON.stringify({ contacts: rows }) });
    const summary = (await res.json()) as { created?: number };
    if (res.status !== 200 || summary.created !== rows.length) throw new Error(`seed at ${offset}: ${res.status} ${JSON.stringify(summary).slice(0, 300)}`);
  }
  console.log(`seeded ${CONTACTS} contacts in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.engine})`);

  const databaseUrl = server.engine.startsWith('PostgreSQL') ? `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}` : null;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl!, '-qAtc', sql], { encoding: 'utf8' });
  // What autovacuum does within a minute of such a load in production: fresh statistics for the planner.
  if (databaseUrl) psql('ANALYZE contacts');

  const url = (q: string) => `${server.baseUrl}/v1/contacts?q=${encodeURIComponent(q)}`;
  for (const [, q] of QUERIES) {
    const res = await fetch(url(q), { headers });
    const page = (await res.json()) as { data?: unknown[] };
    console.log(`q=${q}: ${res.status}, ${page.data?.length ?? 0} on the first page`);
    failIf(res.status !== 200, `GET /v1/contacts?q=${q}: ${res.status}`);
    // The first 30 seeded contacts are Martins (fake-contacts.ts); nobody is called xylophone.
    if (q === 'martin') failIf(!page.data?.length, 'q=martin found nobody');
    if (q === 'xylophone') failIf(page.data?.length, `q=xylophone found ${page.data?.length}`);
  }
  await load('warm-up', { url: url('martin'), headers, duration: 3, connections: 4 });

  for (const connections of CONNECTIONS) {
    const rows = [];
    const p95s: Array<{ query: string; 'p95 ms': number }> = [];
    for (const [label, q] of QUERIES) {
      const latencies: number[] = [];
      const result = await load(`${label}: q=${q}`, {
        url: url(q),
        headers,
        connections,
        duration: DURATION,
        setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms)),
      });
      rows.push(result);
      p95s.push({ query: result.title, 'p95 ms': Math.round(percentile(latencies, 95) * 10) / 10 });
    }
    console.log(
      `\nengine: ${server.engine}; ${CONTACTS} contacts in one org; GET /v1/contacts?q=… (50 per page); ${connections} connection(s), ` +
        `${DURATION} s per query, built server; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
    printTable(rows);
    console.table(p95s);
    const levelWorst = Math.max(...p95s.map((r) => r['p95 ms']));
    console.log(`worst p95 at ${connections} connection(s): ${levelWorst} ms (target < 50 ms)`);
  }

  if (databaseUrl) {
    const orgId = psql('SELECT org_id FROM contacts LIMIT 1').trim();
    const fold = `'àáâãäåçèéêëìíîïñòóôõöùúûüýÿœæ', 'aaaaaaceeeeiiiinooooouuuuyyoa'`;
    for (const q of ['xylophone', 'martin']) {
      // The statement listContacts sends (drizzle), with the values inlined.
      const sql = `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM contacts WHERE org_id = '${orgId}' AND deleted_at IS NULL AND translate(search, ${fold}) LIKE translate(lower('%${q}%'), ${fold}) ORDER BY id DESC LIMIT 51`;
      console.log(`\nEXPLAIN ANALYZE, q=${q}:\n${psql(sql)}`);
    }
  }
} finally {
  await server.stop();
}
