import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { startServer } from './lib/server';
import { failIf, size } from './lib/smoke';

/**
 * Issue 33's figure: what a hostile upload costs the other requests of the built server. Each file is posted to
 * POST /v1/signature/documents while GET /healthz is asked every 50 ms; printed: the upload's answer and time, and
 * the slowest and median /healthz meanwhile. Before issue 33 the upload was parsed on the server's thread: 3 MB of
 * random bytes after %PDF- answered 500 after 44 s with /login blocked 45 s, 2,000 pages 201 after 23 s (22 s blocked).
 * BENCH_ENGINE=pglite for the embedded engine. Exits non-zero when a file gets another answer than its own (201 for
 * the readable ones, 422 for the others) or a /healthz probe fails. BENCH_SMOKE=1: 300 KB of random bytes and 501
 * pages (one over the limit) instead of 3 MB and 2,000.
 */
async function pages(n: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage([200, 200]).drawText(`page ${i + 1}`, { x: 20, y: 100, size: 12 });
  return doc.save();
}

const RANDOM_MB = size(3, 0.3);
const OVER_LIMIT = size(2_000, 501);
/** Each file, and the answer it must get. */
const FILES: Array<[string, () => Promise<Uint8Array>, expected: number]> = [
  ['a 3-page contract (reference)', () => pages(3), 201],
  [`%PDF-1.7 + ${RANDOM_MB} MB of random bytes`, async () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(RANDOM_MB * 1_000_000), Buffer.from('\n%%EOF\n')]), 422],
  ['junk after %PDF- (no page tree)', async () => Buffer.from('%PDF-1.4\nno pdf at all\n%%EOF\n'), 422],
  [`${OVER_LIMIT.toLocaleString('en')} pages (over the limit)`, () => pages(OVER_LIMIT), 422],
  ['500 pages (the limit)', () => pages(500), 201],
];

const server = await startServer(3310);
try {
  const auth = { authorization: `Bearer ${server.apiKey}` };
  // The first upload compiles the sandbox's task and starts its worker: not what is measured.
  const warm = await upload(await pages(1));
  failIf(warm.status !== 201, `the warm-up upload: ${warm.status} ${warm.code ?? ''}`);
  console.log(`engine: ${server.engine}; built server (next start), SANDBOX_THREADS=${process.env.SANDBOX_THREADS ?? 1}`);
  console.log('file | answer | upload s | /healthz slowest ms | /healthz median ms | probes');
  for (const [name, make, expected] of FILES) {
    const bytes = await make();
    const started = performance.now();
    let done = false;
    const answer = upload(bytes).finally(() => {
      done = true;
    });
    const probes: number[] = [];
    let failedProbes = 0;
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const asked = performance.now();
      const probe = await fetch(`${server.baseUrl}/healthz`);
      await probe.text();
      if (probe.status !== 200) failedProbes += 1;
      probes.push(performance.now() - asked);
    }
    const res = await answer;
    const took = (performance.now() - started) / 1000;
    const sorted = [...probes].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.log(`${name} | ${res.status} ${res.code ?? ''} | ${took.toFixed(1)} | ${Math.round(sorted.at(-1) ?? 0)} | ${median.toFixed(1)} | ${probes.length}`);
    failIf(res.status !== expected, `${name}: ${res.status} ${res.code ?? ''}, ${expected} expected`);
    failIf(failedProbes, `${name}: ${failedProbes} /healthz probes answered other than 200 meanwhile`);
  }

  async function upload(bytes: Uint8Array) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'bench.pdf');
    const res = await fetch(`${server.baseUrl}/v1/signature/documents`, { method: 'POST', headers: auth, body: form });
    const body = (await res.json()) as { code?: string };
    return { status: res.status, code: body.code };
  }
} finally {
  await server.stop();
}
