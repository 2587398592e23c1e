import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './lib/fake-contacts';

/**
 * Issue 12's budget ("validation adds under 100 ms p50 to a 10-line finalization"), in-process (no HTTP): the
 * Factur-X of a finalized 10-line invoice through the XSD and the three schematrons (VALIDATIONS runs, one at a
 * time, after a warm-up that starts the workers), then FINALIZATIONS finalizations of 10-line drafts with the seal
 * check and as many without it (the pdf module's manifest installed without its sealChecks), interleaved so that
 * both see the same load. PGlite in memory unless DATABASE_URL is set.
 */
const VALIDATIONS = Number(process.env.VALIDATIONS ?? 40);
const FINALIZATIONS = Number(process.env.FINALIZATIONS ?? 20);
const WARM_UP = 3;

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = 'memory';
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
const { closeDatabase, getDatabase } = await import('@/db/client');
const { stopQueue } = await import('@/lib/jobs/queue');
const { installModules } = await import('@/lib/manifest');
const { jobs, modules } = await import('@/lib/modules');
const { prepareQueues } = await import('@/lib/jobs');
const { finalizeDocument } = await import('@/lib/documents');
const { line } = await import('@/lib/documents/testing');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { completeSeller } = await import('@/lib/pdf/testing');
const { loadRenderModel } = await import('@/lib/pdf/model');
const { buildFacturX } = await import('@/lib/pdf/facturx/cii');
const { validateEInvoice } = await import('@/lib/pdf');

const round = (n: number) => Math.round(n * 10) / 10;

// Finalizing writes the render job in its transaction: its queue must exist (the server prepares them at start).
await prepareQueues(await getDatabase(), jobs);

const org = await createTestOrg('Bench e-invoice');
const api = await completeSeller(org);
const contact = await api.contact({ email: 'compta@client-bench.fr' });
const RATES = ['20', '10', '5.5', '20', '20'];
const invoice = () => ({
  type: 'facture',
  contact_id: contact.id,
  operation_nature: 'mixte',
  payment_method: 'bank_transfer',
  items: Array.from({ length: 10 }, (_, i) =>
    line(`Prestation ${i + 1} — intervention sur site`, String(1 + (i % 4)), 12_000 + i * 137, RATES[i % RATES.length], { unit: 'HUR' }),
  ),
});

const withCheck = modules;
const withoutCheck = modules.map((m) => (m.name === 'pdf' ? { ...m, sealChecks: [] } : m));

const first = await api.issued(invoice());
const xml = buildFacturX(await loadRenderModel(org.db, org.org.id, first.id));
const started = performance.now();
const firstErrors = await validateEInvoice(xml);
const coldMs = performance.now() - started;
if (firstErrors.length > 0) throw new Error(`the bench invoice is invalid: ${JSON.stringify(firstErrors)}`);
for (let i = 0; i < WARM_UP; i++) await validateEInvoice(xml);

const validation: number[] = [];
for (let i = 0; i < VALIDATIONS; i++) {
  const t0 = performance.now();
  await validateEInvoice(xml);
  validation.push(performance.now() - t0);
}

const finalizeOnce = async () => {
  const draft = await api.draft(invoice());
  const t0 = performance.now();
  await finalizeDocument(org.db, org.org.id, draft.id);
  return performance.now() - t0;
};
const checked: number[] = [];
const unchecked: number[] = [];
for (let i = 0; i < WARM_UP; i++) {
  installModules(withoutCheck);
  await finalizeOnce();
  installModules(withCheck);
  await finalizeOnce();
}
for (let i = 0; i < FINALIZATIONS; i++) {
  installModules(withoutCheck);
  unchecked.push(await finalizeOnce());
  installModules(withCheck);
  checked.push(await finalizeOnce());
}

const row = (measure: string, samples: number[]) => ({
  measure,
  runs: samples.length,
  'p50 ms': round(percentile(samples, 50)),
  'p95 ms': round(percentile(samples, 95)),
  'max ms': round(Math.max(...samples)),
});
console.log(
  `\nengine: ${(await getDatabase()).kind}; node ${process.version}; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs; ` +
    `XML ${(Buffer.byteLength(xml) / 1024).toFixed(1)} KB; first validation (workers start, SEF loaded) ${Math.round(coldMs)} ms`,
);
console.table([
  row('validation alone (XSD + CEN + Factur-X + BR-FR)', validation),
  row('finalize 10 lines, without validation', unchecked),
  row('finalize 10 lines, with validation', checked),
]);
const added = percentile(checked, 50) - percentile(unchecked, 50);
console.log(`validation adds ${round(added)} ms p50 to a 10-line finalization (issue 12 budget: < 100 ms)`);
// Finalizing queued render jobs (no worker runs here): stop the queue before the database.
await stopQueue();
await closeDatabase();
