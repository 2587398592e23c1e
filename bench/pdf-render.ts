import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './lib/fake-contacts';
import { failIf, size, sizeFromEnv } from './lib/smoke';

/**
 * Issues 5 and 36's figures, in-process (no HTTP): rendering a finalized invoice — the react-pdf PDF, the Factur-X XML
 * and the PDF/A-3 with the XML embedded — as CPU time per render (user + system: the figure a shared machine blurs
 * least; targets of issue 36: ≤ 25 ms for 2 lines, ≤ 60 ms for 10) with its split by stage, and p50/p95 wall time:
 * RENDERS of a 10-line invoice (2 pages), RENDERS_2 of a 2-line one; resident memory printed every 100 renders (after a
 * GC when run with --expose-gc, as `npm run bench:pdf` does). Then a rendering process of its own (bench/lib/
 * pdf-render-only.ts: the render path alone, without this process's PGlite and e-invoice validator) renders the two
 * invoices CHILD_RENDERS times: its RSS after warm-up, peak and at the end (target of issue 36: < 300 MB over 1,000).
 * Then the same 10-line invoice with emoji, CJK, Greek and Cyrillic text (UNICODE_RENDERS renders: the fallback fonts
 * embedded) and its PDF size; then the render job's whole path for RENDER_JOBS invoices by one worker (load from the
 * database, render, store the file, mark ready), as invoices per minute. Figures printed, never asserted.
 * PGlite in memory unless DATABASE_URL is set; React in production mode unless NODE_ENV says otherwise. Exits non-zero
 * when a render gives no PDF or a render job does not end ready. BENCH_SMOKE=1: a few renders of each, 2 jobs.
 */
const RENDERS = sizeFromEnv('RENDERS', 300, 3);
const RENDERS_2 = sizeFromEnv('RENDERS_2', 300, 3);
const CHILD_RENDERS = sizeFromEnv('CHILD_RENDERS', 1000, 4);
const WARM_UP = size(20, 1);
const RENDER_JOBS = sizeFromEnv('RENDER_JOBS', 50, 2);
const UNICODE_RENDERS = sizeFromEnv('UNICODE_RENDERS', 50, 1);
const UNICODE_WARM_UP = size(5, 0);
/** A render gave a PDF (and its Factur-X XML). */
const checkRender = (out: { pdf: Uint8Array; xml: string | null }, what: string) =>
  failIf(Buffer.from(out.pdf.subarray(0, 5)).toString('latin1') !== '%PDF-' || !out.xml, `${what}: not a PDF with its Factur-X XML`);

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = 'memory';
// Measure React as the server runs it (next start sets production); set before react-pdf is first imported.
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
// As the server and the worker do: the app's modules installed, the job queues created.
const { jobs } = await import('@/lib/composition/modules');
const { closeDatabase, getDatabase } = await import('@/db/client');
const { stopQueue } = await import('@/lib/platform/jobs/queue');
const { line } = await import('@/lib/domain/documents/testing');
const { finalizeDocument } = await import('@/lib/domain/documents/finalize-document');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { LocalStorage, setStorage } = await import('@/lib/platform/storage');
const { completeSeller } = await import('@/lib/domain/pdf/testing');
const { loadRenderModel } = await import('@/lib/domain/pdf/model');
const { renderDocument } = await import('@/lib/domain/pdf/render-document');
const { renderStoredDocument } = await import('@/lib/domain/pdf/render-stored-document');
type Stages = NonNullable<Parameters<typeof renderDocument>[1]>;

await (await import('@/lib/platform/jobs')).prepareQueues(await getDatabase(), jobs);

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const round = (n: number) => Math.round(n * 10) / 10;
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadAtStart = load();
// CPU time (user + system) as well: on a loaded machine wall time mostly measures the neighbours.
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

const org = await createTestOrg('Bench PDF');
const api = await completeSeller(org);
const contact = await api.contact({ email: 'compta@client-bench.fr' });
const RATES = ['20', '10', '5.5', '20', '20'];
const invoice = (lines = 10) => ({
  type: 'facture',
  contact_id: contact.id,
  operation_nature: 'mixte',
  payment_method: 'bank_transfer',
  items: Array.from({ length: lines }, (_, i) =>
    line(`Prestation ${i + 1} — intervention sur site`, String(1 + (i % 4)), 12_000 + i * 137, RATES[i % RATES.length], {
      unit: 'HUR',
      details: i % 3 === 0 ? 'Déplacement et matériel compris.' : null,
    }),
  ),
});
const model = await loadRenderModel(org.db, org.org.id, (await api.issued(invoice(10))).id);
const model2 = await loadRenderModel(org.db, org.org.id, (await api.issued(invoice(2))).id);
gc?.();
const beforeRenders = process.memoryUsage();

// The first render of the process loads the fonts (react-pdf keeps them for the next ones).
const coldStarted = performance.now();
await renderDocument(model);
const firstRender = performance.now() - coldStarted;
for (let i = 0; i < WARM_UP; i++) {
  await renderDocument(model);
  await renderDocument(model2);
}
gc?.();
const baseline = process.memoryUsage();
let peakRss = baseline.rss;

/** `count` renders of `m`, one at a time: wall times, CPU per render, CPU per stage, the last PDF's size. */
async function measure(m: typeof model, count: number, what: string) {
  console.log(`\n${count} renders of ${what} (PDF + Factur-X XML + PDF/A-3), one at a time`);
  const times: number[] = [];
  const stages: Stages = {};
  let bytes = 0;
  const started = process.cpuUsage();
  for (let i = 1; i <= count; i++) {
    const t = performance.now();
    const out = await renderDocument(m, stages);
    times.push(performance.now() - t);
    bytes = out.pdf.byteLength;
    if (i === 1) checkRender(out, `render of ${what}`);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (i % 100 === 0) {
      gc?.();
      const mem = process.memoryUsage();
      peakRss = Math.max(peakRss, mem.rss);
      console.log(`  ${String(i).padStart(5)} renders: rss ${mb(mem.rss)}, heap used ${mb(mem.heapUsed)}, p50 so far ${round(percentile(times, 50))} ms`);
    }
  }
  const cpu = cpuMs(started) / count;
  const split = Object.entries(stages).map(([name, ms]) => `${name} ${round(ms / count)}`);
  console.log(`  CPU ms per render by stage: ${split.join(', ')}; other (the event-loop turn, GC outside a stage) ${round(cpu - Object.values(stages).reduce((a, b) => a + b, 0) / count)}`);
  return { times, cpu, bytes };
}

const ten = await measure(model, RENDERS, 'a finalized 10-line invoice (2 pages)');
const two = await measure(model2, RENDERS_2, 'a finalized 2-line invoice (1 page)');
const end = process.memoryUsage();

// A rendering process of its own: the render path without this process's PGlite and validator threads.
const dir = await mkdtemp(path.join(tmpdir(), 'paraphe-bench-pdf-'));
const modelsFile = path.join(dir, 'models.json');
await writeFile(modelsFile, JSON.stringify([model, model2]));
const renderingProcess = async (way: 'thread' | 'inline') => {
  const out = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, 'lib/pdf-render-only.ts'), modelsFile, String(CHILD_RENDERS), String(WARM_UP), way],
    { env: { ...process.env, NODE_ENV: 'production' }, maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
};
// As the app renders (a sandbox worker thread with its capped heap), then on the process's own thread for comparison.
const child = await renderingProcess('thread');
const inline = await renderingProcess('inline');

// The same invoice in every script users type (issue 12): emoji, symbols, CJK, Greek, Cyrillic — the fallback
// fonts embedded as subsets.
const UNICODE = '💡 ✓ 中文 日本語 Ελληνικά Кириллица';
const unicodeDoc = await api.issued({
  ...invoice(),
  items: invoice().items.map((it, i) => ({ ...it, description: `${UNICODE} ${i + 1}` })),
});
const unicodeModel = await loadRenderModel(org.db, org.org.id, unicodeDoc.id);
const unicodeTimes: number[] = [];
let unicodeBytes = 0;
let unicodeCpuStarted = process.cpuUsage();
for (let i = 0; i < UNICODE_RENDERS + UNICODE_WARM_UP; i++) {
  if (i === UNICODE_WARM_UP) unicodeCpuStarted = process.cpuUsage();
  const started = performance.now();
  const out = await renderDocument(unicodeModel);
  if (i >= UNICODE_WARM_UP) unicodeTimes.push(performance.now() - started);
  unicodeBytes = out.pdf.byteLength;
  if (i === 0) checkRender(out, 'render of the Unicode invoice');
}
const unicodeCpu = cpuMs(unicodeCpuStarted) / UNICODE_RENDERS;

// The job's whole path: documents already finalized, rendered and stored one after the other by one worker.
setStorage(new LocalStorage(dir));
const ids: string[] = [];
for (let i = 0; i < RENDER_JOBS; i++) {
  const draft = await api.draft(invoice());
  ids.push((await finalizeDocument(org.db, org.org.id, draft.id)).id);
}
const jobStarted = performance.now();
const jobTimes: number[] = [];
for (const id of ids) {
  const started = performance.now();
  const status = await renderStoredDocument(org.db, org.org.id, id);
  failIf(status !== 'ready', `render job of document ${id}: ${status}, ready expected`);
  jobTimes.push(performance.now() - started);
}
const jobSeconds = (performance.now() - jobStarted) / 1000;
await rm(dir, { recursive: true, force: true });

const row = (measure: string, runs: number, times: number[], cpu?: number) => ({
  measure,
  runs,
  'p50 ms': round(percentile(times, 50)),
  'p95 ms': round(percentile(times, 95)),
  'max ms': round(Math.max(...times)),
  'per minute (1 worker)': Math.round(60_000 / (times.reduce((a, b) => a + b, 0) / times.length)),
  ...(cpu === undefined ? {} : { 'CPU ms/render': round(cpu) }),
});
console.log(
  `\nengine: ${(await getDatabase()).kind}; node ${process.version}; ${availableParallelism()} CPUs; load average (1, 5, 15 min) ${loadAtStart} at start, ${load()} at end; ` +
    `PDF ${(ten.bytes / 1024).toFixed(1)} KB (10 lines), ${(two.bytes / 1024).toFixed(1)} KB (2 lines); Unicode PDF ${(unicodeBytes / 1024).toFixed(1)} KB; ` +
    `first render of the process (fonts loaded) ${round(firstRender)} ms`,
);
console.table([
  row('render PDF + XML, 10 lines (in memory)', RENDERS, ten.times, ten.cpu),
  row('render PDF + XML, 2 lines (in memory)', RENDERS_2, two.times, two.cpu),
  row('render PDF + XML, emoji/CJK/Greek/Cyrillic', UNICODE_RENDERS, unicodeTimes, unicodeCpu),
  { ...row('render job (load, render, store, ready)', RENDER_JOBS, jobTimes), 'per minute (1 worker)': Math.round((RENDER_JOBS / jobSeconds) * 60) },
]);
console.log(
  `memory, this process (PGlite, validator threads): rss ${mb(beforeRenders.rss)} before any render, ${mb(baseline.rss)} after warm-up → ` +
    `${mb(end.rss)} after ${RENDERS + RENDERS_2} renders (peak ${mb(peakRss)}); heap used ${mb(beforeRenders.heapUsed)} before, ${mb(baseline.heapUsed)} → ${mb(end.heapUsed)}`,
);
console.log(
  `memory, a rendering process alone, rendering in its sandbox worker thread as the app does (${CHILD_RENDERS} renders, 10 and 2 lines in turn, ${round(child.cpuMs!)} CPU ms/render): ` +
    `rss ${mb(child.rssAtStart!)} at start, ${mb(child.rssAfterWarmUp!)} after warm-up → ${mb(child.rssEnd!)} after ${CHILD_RENDERS} (peak ${mb(child.peakRss!)}) (target < 300 MB)`,
);
console.log(
  `memory, the same rendering on the process's own thread, uncapped (${round(inline.cpuMs!)} CPU ms/render): ` +
    `rss ${mb(inline.rssAfterWarmUp!)} after warm-up → ${mb(inline.rssEnd!)} after ${CHILD_RENDERS} (peak ${mb(inline.peakRss!)}); heap used ${mb(inline.heapAfterWarmUp!)} → ${mb(inline.heapEnd!)}`,
);
console.log(`CPU per render: 2 lines ${round(two.cpu)} ms (target ≤ 25), 10 lines ${round(ten.cpu)} ms (target ≤ 60); p50 10 lines ${round(percentile(ten.times, 50))} ms (target < 300 ms)`);
// Finalizing through the API queued render jobs (no worker runs here): stop the queue before the database.
await stopQueue();
await (await import('@/lib/platform/sandbox')).closeSandbox();
await closeDatabase();
