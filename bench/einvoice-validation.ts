import { availableParallelism, loadavg } from 'node:os';
import { percentile } from './lib/fake-contacts';
import { failIf, size, sizeFromEnv } from './lib/smoke';

/**
 * Issue 12's budget ("validation adds under 100 ms p50 to a 10-line finalization"), in-process (no HTTP): the
 * Factur-X of a finalized 10-line invoice through the XSD and the three schematrons (VALIDATIONS runs, one at a
 * time, each a distinct document so that no result comes from the cache, after a warm-up that starts the workers),
 * then FINALIZATIONS finalizations of 10-line drafts three ways, interleaved so that all see the same load: without
 * the e-invoice check (the same draft as a quote, which has no e-invoice: the same lines, number, snapshots and seal),
 * with it, and with it after the draft's validation was asked (as the back-office page of a draft does). PGlite in
 * memory unless DATABASE_URL is set. Exits non-zero when a validation reports an error or a finalization does not
 * give a number. BENCH_SMOKE=1: 2 validations and one finalization of each kind, one warm-up.
 */
const VALIDATIONS = sizeFromEnv('VALIDATIONS', 40, 2);
const FINALIZATIONS = sizeFromEnv('FINALIZATIONS', 20, 1);
const WARM_UP = size(3, 1);

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = 'memory';
(process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
const { closeDatabase, getDatabase } = await import('@/db/client');
const { stopQueue } = await import('@/lib/platform/jobs/queue');
const { jobs } = await import('@/lib/composition/modules');
const { prepareQueues } = await import('@/lib/platform/jobs');
const { finalizeDocument, invoiceModelOf, loadDocument, loadItems } = await import('@/lib/domain/documents');
const { line } = await import('@/lib/domain/documents/testing');
const { createTestOrg } = await import('@/lib/testing/fixtures');
const { completeSeller } = await import('@/lib/domain/pdf/testing');
const { buildFacturX, validateEInvoice } = await import('@/lib/domain/facturx');
const { validateDocumentEInvoice } = await import('@/lib/domain/pdf');

const round = (n: number) => Math.round(n * 10) / 10;

// Finalizing writes the render job in its transaction: its queue must exist (the server prepares them at start).
await prepareQueues(await getDatabase(), jobs);

const org = await createTestOrg('Bench e-invoice');
const api = await completeSeller(org);
const contact = await api.contact({ email: 'compta@client-bench.fr' });
const RATES = ['20', '10', '5.5', '20', '20'];
const invoice = (type = 'facture') => ({
  type,
  contact_id: contact.id,
  operation_nature: 'mixte',
  payment_method: 'bank_transfer',
  items: Array.from({ length: 10 }, (_, i) =>
    line(`Prestation ${i + 1} — intervention sur site`, String(1 + (i % 4)), 12_000 + i * 137, RATES[i % RATES.length], { unit: 'HUR' }),
  ),
});

// The first finalization of the process starts the validation workers (they load the schema and the SEF files).
const started = performance.now();
const first = await api.issued(invoice());
const coldMs = performance.now() - started;
const xml = buildFacturX(await invoiceModelOf(org.db, org.org.id, await loadDocument(org.db, org.org.id, first.id), await loadItems(org.db, org.org.id, first.id)));
const firstErrors = await validateEInvoice(xml);
if (firstErrors.length > 0) throw new Error(`the bench invoice is invalid: ${JSON.stringify(firstErrors)}`);

// validateEInvoice keeps results by the XML's hash: each run validates a document of its own (another BT-1).
// BT-1 is the ID of rsm:ExchangedDocument (the first ram:ID of the file is BT-23's, the business process: M1…).
const bt1 = /(<rsm:ExchangedDocument>\s*<ram:ID>)([^<]+)(<\/ram:ID>)/;
if (!bt1.test(xml)) throw new Error('the bench invoice has no BT-1 (rsm:ExchangedDocument/ram:ID)');
const validation: number[] = [];
// CPU time of the whole process (the two validation threads; the main thread only waits) per validation: unlike the
// wall time, it hardly moves with the machine's load.
const validationCpu: number[] = [];
for (let i = -WARM_UP; i < VALIDATIONS; i++) {
  const distinct = xml.replace(bt1, `$1$2-${i}$3`);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const errors = await validateEInvoice(distinct);
  const cpu = process.cpuUsage(cpu0);
  failIf(errors.length, `validation ${i}: ${JSON.stringify(errors).slice(0, 300)}`);
  if (i >= 0) {
    validation.push(performance.now() - t0);
    validationCpu.push((cpu.user + cpu.system) / 1000);
  }
}

/**
 * One finalization timed; `previewed`: the draft's validation was asked first (the back-office page shows it); `type`
 * devis: the same draft as a quote, finalized without an e-invoice check.
 */
const finalizeOnce = async (previewed = false, type = 'facture') => {
  const draft = await api.draft(invoice(type));
  if (previewed) await validateDocumentEInvoice(org.db, org.org.id, draft.id);
  const t0 = performance.now();
  const finalized = await finalizeDocument(org.db, org.org.id, draft.id);
  const ms = performance.now() - t0;
  failIf(!finalized.number, `${type} ${draft.id} finalized without a number`);
  return ms;
};
const checked: number[] = [];
const unchecked: number[] = [];
const afterPreview: number[] = [];
for (let i = 0; i < WARM_UP + FINALIZATIONS; i++) {
  const a = await finalizeOnce(false, 'devis');
  const b = await finalizeOnce();
  const c = await finalizeOnce(true);
  if (i < WARM_UP) continue;
  unchecked.push(a);
  checked.push(b);
  afterPreview.push(c);
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
    `XML ${(Buffer.byteLength(xml) / 1024).toFixed(1)} KB; first finalization (workers start, schema and SEF loaded) ${Math.round(coldMs)} ms`,
);
console.table([
  row('validation alone (XSD + CEN + Factur-X + BR-FR)', validation),
  row('  its CPU time, both threads together', validationCpu),
  row('finalize 10 lines, without validation (the same as a quote)', unchecked),
  row('finalize 10 lines, with validation', checked),
  row('finalize 10 lines, with validation, draft previewed first', afterPreview),
]);
const added = (samples: number[]) => round(percentile(samples, 50) - percentile(unchecked, 50));
console.log(
  `validation adds ${added(checked)} ms p50 to a 10-line finalization, ${added(afterPreview)} ms once the draft was previewed (issue 12 budget: < 100 ms)`,
);
// Finalizing queued render jobs (no worker runs here): stop the queue before the database.
await stopQueue();
await closeDatabase();
