import { type Db, getDatabase } from '@/db/client';
import { spawn } from 'node:child_process';
import { appBaseUrl, demoDataEnabled, einvoicingAllowPrivate, paSandboxPort, webhooksAllowPrivate } from '@/lib/platform/config';
import { connectToDevSandbox } from '@/lib/domain/einvoicing';
import { prepareQueues, startWorkers } from '@/lib/platform/jobs';
import { jobs, sandboxTasks } from '@/lib/composition/modules';
import { prepareSandbox } from '@/lib/platform/sandbox';
import { demoOrgId, fillDemoData } from '@/lib/composition/demo-data';
import { formatCredentials, seedDemo } from '@/lib/composition/seed';
import { schematronEngine, warmUpEInvoiceValidation } from '@/lib/domain/facturx';
import { sealingIdentity } from '@/lib/domain/signature';
import { log } from '@/lib/platform/log';

/**
 * Server start: migrate (inside getDatabase), create the job queues (a change writes its jobs in its own
 * transaction, so their queues must exist before the first request), seed the demo on an empty database, fill it
 * with demo documents when DEMO_DATA=true and it has none, start the inline job worker unless WORKER_MODE=off.
 * Called once from instrumentation.ts.
 */
export async function boot() {
  if (webhooksAllowPrivate()) {
    log.warn('WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (tests and local development only)');
  }
  if (einvoicingAllowPrivate()) {
    log.warn('EINVOICING_ALLOW_PRIVATE (or PA_SANDBOX in development): the PA connection may target http and private, loopback and link-local addresses');
  }
  // The sealing certificate is checked first: a bad file stops the start with its reason (unreadable, wrong password,
  // expired, no private key) rather than failing the first completed envelope.
  const seal = sealingIdentity();
  log.info({ subject: seal.subject, source: seal.source, valid_until: seal.notAfter.toISOString().slice(0, 10) }, `signature seal: ${seal.subject} (${seal.source === 'development' ? 'development certificate in .data/' : 'SIGNATURE_CERT_PATH'}), valid until ${seal.notAfter.toISOString().slice(0, 10)}`);
  const database = await getDatabase();
  await prepareQueues(database, jobs);
  const demo = await seedDemo(database.db);
  // The demo's banner is for the person at the terminal (README), not a log line: written as it is.
  if (demo) process.stdout.write(`${formatCredentials(demo, appBaseUrl())}\n`);
  if (demoDataEnabled()) await addDemoData(database.db, demo?.orgId ?? (await demoOrgId(database.db)));
  const sandboxPort = paSandboxPort();
  if (sandboxPort) await startDevSandbox(database.db, sandboxPort);
  // The JVM compiles the stylesheets for seconds, which the first finalization would otherwise wait: in production the
  // server is ready once they are; under `npm run dev` they compile in the background.
  const validation = warmUpEInvoiceValidation();
  // The untrusted-file workers' code (lib/platform/sandbox): compiled now, so that a start that cannot build it stops.
  const sandbox = prepareSandbox(sandboxTasks);
  if (process.env.NODE_ENV === 'production') await Promise.all([validation, sandbox]);
  else sandbox.catch((error) => log.error(error, 'the sandbox tasks could not be compiled'));
  log.info(`e-invoice validation: ${schematronEngine() === 'jvm' ? 'Saxon-HE on the JVM' : 'SaxonJS (EINVOICE_VALIDATOR=saxonjs, or no Java and Saxon-HE here)'}`);
  if ((process.env.WORKER_MODE ?? 'inline') !== 'off') {
    await startWorkers(jobs);
    log.info({ database: database.kind, worker: 'inline' }, `database: ${database.kind}; inline job worker started`);
  } else {
    log.info({ database: database.kind, worker: 'off' }, `database: ${database.kind}; inline job worker off (WORKER_MODE=off)`);
  }
}

/** DEMO_DATA: a failure is reported, never fatal (the app runs without the demo documents). */
async function addDemoData(db: Db, orgId: string | null) {
  if (!orgId) return;
  try {
    const added = await fillDemoData(db, orgId);
    if (added) log.info(`demo data (DEMO_DATA=true): ${added.contacts} clients and ${added.documents} documents added to the demo org`);
  } catch (error) {
    log.error(error, 'demo data (DEMO_DATA=true) could not be added');
  }
}

/**
 * PA_SANDBOX=true (development): the sandbox PA in a process of its own (scripts/pa-sandbox.ts, ended with this
 * server, however it ends: the child leaves when its IPC channel closes), and the demo org connected to it when it has no PA. A failure is reported, never fatal.
 */
async function startDevSandbox(db: Db, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/pa-sandbox.ts'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, PA_SANDBOX_PORT: String(port) } });
  child.on('error', (error) => log.error(error, 'the sandbox PA could not start (PA_SANDBOX=true)'));
  process.once('exit', () => child.kill());
  const orgId = await demoOrgId(db);
  if (orgId && (await connectToDevSandbox(db, orgId, `http://127.0.0.1:${port}`).catch(() => false))) {
    log.info(`PA_SANDBOX=true: the demo org is connected to the sandbox PA on http://127.0.0.1:${port} (Réglages → Facturation électronique)`);
  }
}
