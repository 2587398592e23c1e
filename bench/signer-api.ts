import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { PDFDocument } from 'pdf-lib';
import { percentile } from './lib/fake-contacts';
import { type LoadResult, load, printTable, startServer } from './lib/server';
import { failIf, listFromEnv, sizeFromEnv } from './lib/smoke';

/**
 * Issue 18's figure: the signer page's server time on PostgreSQL. The page (/sign/<token>) is a client of the signer
 * API: its server work is GET /api/sign/<token> (the state) — measured here — plus the page's own HTML, measured
 * beside it. One real envelope (a 2-page PDF, 3 fields, sent through the API) opened once; beside it ENVELOPES
 * in-progress envelopes of 2 signers with 3 fields each seeded by SQL, so that every lookup runs on tables of some
 * size. DURATION s at each level of CONNECTIONS; p50 and p95 (one connection: the server's time).
 * Run: `npm run build && npm run bench:signer-api` (ENVELOPES, CONNECTIONS, DURATION). Exits non-zero when a request
 * answers other than 2xx, the state is not the opened signer's with its 3 fields, or the seed is short. BENCH_SMOKE=1:
 * 50 neighbours, one connection, a few requests.
 */
const ENVELOPES = sizeFromEnv('ENVELOPES', 20_000, 50);
const CONNECTIONS = listFromEnv('CONNECTIONS', '1,10', '1');
const DURATION = sizeFromEnv('DURATION', 10, 1);

// The per-address limit of the signer API would stop a load test from one address.
const server = await startServer(3324, { SIGN_RATE_LIMIT_POINTS: '1000000000' });
try {
  if (!server.engine.startsWith('PostgreSQL')) throw new Error('bench/signer-api seeds through SQL: it needs PostgreSQL on 127.0.0.1:5432');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/paraphe_bench_${process.pid}`;
  const psql = (sql: string) => execFileSync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();
  const auth = { authorization: `Bearer ${server.apiKey}` };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };

  // ── The envelope the page shows ───────────────────────────────────────────
  const pdf = await PDFDocument.create();
  for (let i = 0; i < 2; i++) pdf.addPage([595, 842]).drawText(`Contrat page ${i + 1}`, { x: 50, y: 780 });
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await pdf.save())], { type: 'application/pdf' }), 'contrat.pdf');
  const uploaded = await fetch(`${server.baseUrl}/v1/signature/documents`, { method: 'POST', headers: auth, body: form });
  const doc = (await uploaded.json()) as { id: string };
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(doc)}`);
  const envelope = await api('POST', '/v1/signature/envelopes', {
    source_kind: 'document',
    source_document_id: doc.id,
    subject: 'Contrat de prestation',
    signers: [{ email: 'signataire@client.example', full_name: 'Jeanne Client', verification_method: 'email_otp' }],
  });
  const signerId = (envelope.signers as Array<{ id: string }>)[0]!.id;
  const box = (type: string, y: number) => ({ signer_id: signerId, type, page: 2, x: 0.1, y, width: 0.3, height: 0.05, required: true, label: type });
  await api('PUT', `/v1/signature/envelopes/${envelope.id}/fields`, { fields: [box('text', 0.6), box('date', 0.7), box('signature', 0.8)] });
  await api('POST', `/v1/signature/envelopes/${envelope.id}/send`);
  const signUrl = psql(`SELECT template_data->>'sign_url' FROM emails WHERE template = 'signature_request' ORDER BY id DESC LIMIT 1`);
  const token = signUrl.split('/').at(-1)!;

  // ── Neighbours by SQL: envelopes in progress, 2 signers each with a live token hash, 3 fields each ───────
  const seeding = performance.now();
  psql(`
    INSERT INTO signature_envelopes (id, org_id, status, source_kind, source_document_id, document_id, consent_text_version, subject, sent_at, document_hash, expires_at)
    SELECT gen_random_uuid(), e.org_id, 'in_progress', 'document', e.source_document_id, e.document_id, e.consent_text_version, 'Voisin ' || i, now(), e.document_hash, now() + interval '30 days'
      FROM generate_series(1, ${ENVELOPES}) i CROSS JOIN (SELECT * FROM signature_envelopes WHERE id = '${envelope.id}') e`);
  psql(`
    INSERT INTO signature_signers (id, org_id, envelope_id, position, email, routing_order, verification_method, status, token_hash, notified_at)
    SELECT gen_random_uuid(), e.org_id, e.id, p, 'voisin' || p || '-' || e.id || '@client.example', p, 'email_otp', 'notified', encode(sha256((e.id::text || p)::bytea), 'hex'), now()
      FROM signature_envelopes e CROSS JOIN generate_series(0, 1) p WHERE e.subject LIKE 'Voisin %'`);
  psql(`
    INSERT INTO signature_fields (id, org_id, envelope_id, signer_id, position, type, page, x, y, width, height)
    SELECT gen_random_uuid(), s.org_id, s.envelope_id, s.id, f, (ARRAY['text', 'date', 'signature'])[f + 1], 1, 0.1, 0.1 + f * 0.2, 0.3, 0.05
      FROM signature_signers s CROSS JOIN generate_series(0, 2) f WHERE s.email LIKE 'voisin%'`);
  for (const table of ['signature_envelopes', 'signature_signers', 'signature_fields', 'signature_requested_documents', 'signature_uploads']) psql(`VACUUM ANALYZE ${table}`);
  const neighbours = Number(psql("SELECT count(*) FROM signature_signers WHERE email LIKE 'voisin%'"));
  failIf(neighbours !== ENVELOPES * 2, `${neighbours} neighbour signers seeded, ${ENVELOPES * 2} expected`);
  console.log(`seeded ${psql("SELECT count(*) FROM signature_signers WHERE email LIKE 'voisin%'")} signers, ${psql('SELECT count(*) FROM signature_fields')} fields in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.engine})`);

  // ── Requests ──────────────────────────────────────────────────────────────
  const stateUrl = `${server.baseUrl}/api/sign/${token}`;
  // The seeding outlasts the server's keep-alive: a pooled socket may be closed under the first request.
  const first = await fetch(stateUrl).catch(() => fetch(stateUrl));
  const state = (await first.json()) as { signer: { status: string }; fields: unknown[] };
  if (first.status !== 200 || state.signer.status !== 'opened' || state.fields.length !== 3) throw new Error(`the state: ${first.status} ${JSON.stringify(state).slice(0, 300)}`);
  const targets: Array<[string, string]> = [
    ['GET /api/sign/<token> (the state)', stateUrl],
    ['GET /sign/<token> (the page)', `${server.baseUrl}/sign/${token}`],
  ];
  for (const [title, url] of targets) {
    await load('warm-up', { url, duration: 3, connections: 4 });
    for (const connections of CONNECTIONS) {
      const latencies: number[] = [];
      const result: LoadResult = await load(`${title}, ${connections} connection(s)`, {
        url,
        connections,
        duration: DURATION,
        setupClient: (client) => client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms)),
      });
      const p50 = Math.round(percentile(latencies, 50) * 10) / 10;
      const p95 = Math.round(percentile(latencies, 95) * 10) / 10;
      console.log(`\nengine: ${server.engine}; ${ENVELOPES + 1} envelopes; ${connections} connection(s), ${DURATION} s; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`);
      printTable([result]);
      console.log(`${title}: p50 ${p50} ms, p95 ${p95} ms${connections > 1 ? ` (${result.requestsPerSecond} req/s)` : ' (server time)'}`);
    }
  }
} finally {
  await server.stop();
}
