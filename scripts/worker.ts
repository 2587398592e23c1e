import { exitOnStartProblems } from '@/lib/composition/config-check';
import { closeDatabase } from '@/db/client';
import { einvoicingAllowPrivate, webhooksAllowPrivate } from '@/lib/platform/config';
import { startWorkers, stopQueue } from '@/lib/platform/jobs';
import { jobs, sandboxTasks } from '@/lib/composition/modules';
import { closeSandbox, prepareSandbox } from '@/lib/platform/sandbox';
import { einvoiceValidationStats, schematronEngine, warmUpEInvoiceValidation } from '@/lib/domain/facturx';

// A separate worker process: with PostgreSQL, run as many as needed (WORKER_MODE=off on the app instances).
// A bad environment stops it here, one line per variable and its fix (lib/composition/config-check.ts).
exitOnStartProblems();
if (webhooksAllowPrivate()) console.warn('[paraphe] WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (tests and local development only)');
if (einvoicingAllowPrivate()) console.warn('[paraphe] EINVOICING_ALLOW_PRIVATE=true: the PA connection may target http and private, loopback and link-local addresses');
// The JVM engine compiles its stylesheets before the worker takes jobs (seconds, once per process).
// The untrusted-file workers' code too (lib/platform/sandbox): a worker that cannot build it does not start.
await Promise.all([warmUpEInvoiceValidation(), prepareSandbox(sandboxTasks)]);
await startWorkers(jobs);
console.log(`[paraphe] worker started (e-invoice validation: ${schematronEngine() === 'jvm' ? 'Saxon-HE on the JVM' : 'SaxonJS'})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    // How often a finalization's e-invoice was validated again under the chain lock (another took the number meanwhile).
    const { validations, reused } = einvoiceValidationStats();
    console.log(`[paraphe] worker stopping: ${validations} e-invoice validations, ${reused} answers reused`);
    await stopQueue();
    await closeSandbox();
    await closeDatabase();
    process.exit(0);
  });
}
