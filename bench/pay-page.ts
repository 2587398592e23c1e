import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
// The fake alone, not lib/domain/payments/testing's index: that one also brings the tests' vitest fixtures.
import { startFakeStripe } from '@/lib/domain/payments/testing/fake-stripe';
import { percentile } from './lib/fake-contacts';
import { type LoadResult, load, printTable, startServer } from './lib/server';
import { failIf, listFromEnv, sizeFromEnv } from './lib/smoke';

/**
 * Issue 14's figure: the server time of the public /pay/<token> page (GET, no session), on the built server and
 * PostgreSQL. One real invoice of 12 lines, partly paid, issued through the API, with its payment link; beside it
 * DOCUMENTS invoices with their lines, payments and links seeded by SQL, so that every lookup runs on a table of
 * some size. Online payment is on (the fake Stripe on a local port; a GET of the page never calls it), and the org has
 * an IBAN (the transfer's QR code is drawn at each request). DURATION s
 * at each level of CONNECTIONS; prints p50 and p95: with one connection the server's time (target p95 under 50 ms),
 * with more the latency of clients queued on one Node process. Exits non-zero when a request answers other than 2xx,
 * the page lacks its invoice number or card button, or the seed is short. BENCH_SMOKE=1: 100 neighbours, one
 * connection, a few requests.
 */
const DOCUMENTS = sizeFromEnv('DOCUMENTS', 20_000, 100);
const CONNECTIONS = listFromEnv('CONNECTIONS', '1,10', '1');
const DURATION = sizeFromEnv('DURATION', 10, 1);

const fake = await startFakeStripe();
const account = fake.addAccount();
const server = await startServer(3322, { STRIPE_SECRET_KEY: 'sk_test_bench', STRIPE_API_BASE: fake.url });
try {
  if (!server.engine.startsWith('PostgreSQL')) throw new Error('bench:pay-page seeds through SQL: it needs PostgreSQL on 127.0.0.1:5432');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}`;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
  // The neighbours are written as finalized rows directly: the sealing triggers (finalization only) stand aside.
  const seed = (sql: string) => psql(`SET session_replication_role = replica; ${sql}`);
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };

  // ── The invoice the page shows ────────────────────────────────────────────
  const orgId = psql('SELECT id FROM orgs LIMIT 1');
  psql(`INSERT INTO payment_accounts (org_id, account_id, charges_enabled, details_submitted, card_payments, sepa_debit_payments, refreshed_at)
        VALUES ('${orgId}', '${account.id}', true, true, 'active', 'active', now())`);
  // An IBAN: the page also draws the transfer's EPC QR code (issue 35), part of what is measured.
  await api('PUT', '/v1/invoice/settings', { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' });
  const contact = await api('POST', '/v1/contacts', { company: 'Client SARL', email: 'compta@client.example', siret: '55203253400646', address: '1 rue du Client', postal_code: '69001', city: 'Lyon' });
  const items = Array.from({ length: 12 }, (_, i) => ({ description: `Prestation ${i + 1}`, quantity: String(1 + (i % 3)), unit_price: 12_500 + i * 1_000, vat_rate: '20' }));
  const draft = await api('POST', '/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items });
  const invoice = await api('POST', `/v1/invoices/${draft.id}/finalize`);
  await api('POST', `/v1/invoices/${invoice.id}/payments`, { amount: 10_000, method: 'bank_transfer' });
  const link = await api('POST', `/v1/invoices/${invoice.id}/payment-link`);
  const url = String(link.url);

  // ── Neighbours: invoices, lines, payments and links by SQL (UUIDv7-shaped ids, as the app makes them) ───────
  const seeding = performance.now();
  const newId = (seed: string, tag: string) =>
    `(lpad(to_hex((extract(epoch FROM now()) * 1000)::bigint), 12, '0') || '7' || substr(md5(${seed}), 1, 3) || '${tag}' || substr(md5(${seed}), 4, 15))::uuid`;
  seed(`
    INSERT INTO documents (id, org_id, type, status, status_changed_at, contact_id, number, issue_date, due_date, total_ht, total_tva, total_ttc,
                           client_snapshot, seller_snapshot, finalized_at, chain_index, content_hash, prev_hash, sent_at, created_at, updated_at)
    SELECT ${newId("'d' || i", '8')}, '${orgId}', 'facture', 'sent', now(), '${contact.id}', 'BENCH-' || lpad(i::text, 6, '0'),
           current_date, current_date + 30, 100000, 20000, 120000, d.client_snapshot, d.seller_snapshot, now(), 1000 + i,
           md5('h' || i) || md5('x' || i), md5('h' || (i - 1)) || md5('x' || (i - 1)), now(), now(), now()
      FROM generate_series(1, ${DOCUMENTS}) i CROSS JOIN (SELECT client_snapshot, seller_snapshot FROM documents WHERE id = '${invoice.id}') d`);
  seed(`
    INSERT INTO document_items (id, org_id, document_id, position, description, quantity, unit_price, vat_rate, vat_category, total_ht, total_ttc)
    SELECT ${newId("d.id::text || p", '9')}, d.org_id, d.id, p, 'Ligne ' || p, '1', 25000, '20.00', 'S', 25000, 30000
      FROM documents d CROSS JOIN generate_series(1, 4) p WHERE d.org_id = '${orgId}' AND d.number LIKE 'BENCH-%'`);
  seed(`
    INSERT INTO payments (id, org_id, document_id, amount, paid_at, method, created_at)
    SELECT ${newId("'p' || d.id::text", 'a')}, d.org_id, d.id, 30000, current_date, 'bank_transfer', now()
      FROM documents d WHERE d.org_id = '${orgId}' AND d.number LIKE 'BENCH-%' AND d.chain_index % 3 = 0`);
  seed(`
    INSERT INTO payment_links (id, org_id, document_id, token_hash)
    SELECT ${newId("'l' || d.id::text", 'b')}, d.org_id, d.id, encode(sha256(d.id::text::bytea), 'hex')
      FROM documents d WHERE d.org_id = '${orgId}' AND d.number LIKE 'BENCH-%'`);
  for (const table of ['documents', 'document_items', 'payments', 'payment_links', 'online_payments']) psql(`VACUUM ANALYZE ${table}`);
  const links = Number(psql(`SELECT count(*) FROM payment_links WHERE org_id = '${orgId}'`));
  failIf(links !== DOCUMENTS + 1, `${links} payment links seeded, ${DOCUMENTS + 1} expected`);
  console.log(
    `seeded ${psql(`SELECT count(*) FROM payment_links WHERE org_id = '${orgId}'`)} payment links, ` +
      `${psql(`SELECT count(*) FROM document_items WHERE org_id = '${orgId}'`)} lines, ${psql(`SELECT count(*) FROM payments WHERE org_id = '${orgId}'`)} payments ` +
      `in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.engine})`,
  );

  // ── Requests ──────────────────────────────────────────────────────────────
  const first = await fetch(url, { headers: { 'accept-language': 'fr-FR' } });
  const html = await first.text();
  if (first.status !== 200 || !html.includes('Payer par carte') || !html.includes('id="pay-transfer"') || !html.includes(String(invoice.number))) {
    throw new Error(`the page: ${first.status} ${html.slice(0, 300)}`);
  }
  console.log(`GET ${url.replace(/[^/]+$/, '<token>')}: ${first.status}, ${html.length} bytes, ${first.headers.get('cache-control')}, ${first.headers.get('referrer-policy')}`);
  await load('warm-up', { url, duration: 3, connections: 4 });
  for (const connections of CONNECTIONS) {
    const latencies: number[] = [];
    const result: LoadResult = await load(`GET /pay/<token> (${connections} connection${connections > 1 ? 's' : ''})`, {
      url,
      connections,
      duration: DURATION,
      setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms)),
    });
    const p50 = Math.round(percentile(latencies, 50) * 10) / 10;
    const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
    console.log(
      `\nengine: ${server.engine}; ${DOCUMENTS + 1} payment links in the org; ${connections} connection(s), ${DURATION} s, built server; ` +
        `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
    printTable([result]);
    // One client at a time measures the server's time per page; several at once measure their wait in one Node
    // process's queue as well (run one process per core to serve more, README "How it scales").
    if (connections === 1) console.log(`server time: p50 ${p50} ms, p95 ${p95} ms (target p95 < 50 ms: ${p95 < 50 ? 'met' : 'MISSED'})`);
    else console.log(`latency with ${connections} clients at once on one process: p50 ${p50} ms, p95 ${p95} ms (${result.requestsPerSecond} pages/s)`);
  }
} finally {
  await server.stop();
  await fake.close();
}
