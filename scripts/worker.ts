import { exitOnStartProblems } from '@/lib/composition/config-check';
import { einvoicingAllowPrivate, otlpEndpoint, webhooksAllowPrivate } from '@/lib/platform/config';
import { startTelemetry } from '@/lib/platform/telemetry';
import { startWorkers } from '@/lib/platform/jobs';
import { installGracefulStop } from '@/lib/composition/shutdown';
import { log } from '@/lib/platform/log';
import { jobs, sandboxTasks } from '@/lib/composition/modules';
import { prepareSandbox } from '@/lib/platform/sandbox';
import { einvoiceValidationStats, schematronEngine, warmUpEInvoiceValidation } from '@/lib/domain/facturx';

// A separate worker process: with PostgreSQL, run as many as needed (WORKER_MODE=off on the app instances).
// A bad environment stops it here, one line per variable and its fix (lib/composition/config-check.ts).
exitOnStartProblems();
// Traces and metrics when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/platform/telemetry): the worker is its own service.
await startTelemetry({ serviceName: 'paraphe-worker', endpoint: otlpEndpoint() });
if (webhooksAllowPrivate()) log.warn('WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (tests and local development only)');
if (einvoicingAllowPrivate()) log.warn('EINVOICING_ALLOW_PRIVATE=true: the PA connection may target http and private, loopback and link-local addresses');
// The JVM engine compiles its stylesheets before the worker takes jobs (seconds, once per process).
// The untrusted-file workers' code too (lib/platform/sandbox): a worker that cannot build it does not start.
await Promise.all([warmUpEInvoiceValidation(), prepareSandbox(sandboxTasks)]);
await startWorkers(jobs);
log.info({ einvoice_validator: schematronEngine() }, `worker started (e-invoice validation: ${schematronEngine() === 'jvm' ? 'Saxon-HE on the JVM' : 'SaxonJS'})`);
// SIGTERM or SIGINT: the one stop sequence (lib/composition/shutdown.ts), with how often a finalization's e-invoice
// was validated again under the chain lock (another took the number meanwhile).
installGracefulStop({
  beforeStop: () => {
    const { validations, reused } = einvoiceValidationStats();
    log.info({ einvoice_validations: validations, einvoice_answers_reused: reused }, `worker stopping: ${validations} e-invoice validations, ${reused} answers reused`);
  },
});
