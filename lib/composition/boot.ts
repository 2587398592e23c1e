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

/**
 * Server start: migrate (inside getDatabase), create the job queues (a change writes its jobs in its own
 * transaction, so their queues must exist before the first request), seed the demo on an empty database, fill it
 * with demo documents when DEMO_DATA=true and it has none, start the inline job worker unless WORKER_MODE=off.
 * Called once from instrumentation.ts.
 */
export async function boot() {
  if (webhooksAllowPrivate()) {
    console.warn('[paraphe] WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (tests and local development only)');
  }
  if (einvoicingAllowPrivate()) {
    console.warn('[paraphe] EINVOICING_ALLOW_PRIVATE (or PA_SANDBOX in development): the PA connection may target http and private, loopback and link-local addresses');
  }
  // The sealing certificate is checked first: a bad file stops the start with its reason (unreadable, wrong password,
  // expired, no private key) rather than failing the first completed envelope.
  const seal = sealingIdentity();
  console.log(`[paraphe] signature seal: ${seal.subject} (${seal.source === 'development' ? 'development certificate in .data/' : 'SIGNATURE_CERT_PATH'}), valid until ${seal.notAfter.toISOString().slice(0, 10)}`);
  const database = await getDatabase();
  await prepareQueues(database, jobs);
  const demo = await seedDemo(database.db);
  if (demo) console.log(formatCredentials(demo, appBaseUrl()));
  if (demoDataEnabled()) await addDemoData(database.db, demo?.orgId ?? (await demoOrgId(database.db)));
  const sandboxPort = paSandboxPort();
  if (sandboxPort) await startDevSandbox(database.db, sandboxPort);
  // The JVM compiles the stylesheets for seconds, which the first finalization would otherwise wait: in production the
  // server is ready once they are; under `npm run dev` they compile in the background.
  const validation = warmUpEInvoiceValidation();
  // The untrusted-file workers' code (lib/platform/sandbox): compiled now, so that a start that cannot build it stops.
  const sandbox = prepareSandbox(sandboxTasks);
  if (process.env.NODE_ENV === 'production') await Promise.all([validation, sandbox]);
  else sandbox.catch((error) => console.error('[paraphe] the sandbox tasks could not be compiled:', error));
  console.log(`[paraphe] e-invoice validation: ${schematronEngine() === 'jvm' ? 'Saxon-HE on the JVM' : 'SaxonJS (EINVOICE_VALIDATOR=saxonjs, or no Java and Saxon-HE here)'}`);
  if ((process.env.WORKER_MODE ?? 'inline') !== 'off') {
    await startWorkers(jobs);
    console.log(`[paraphe] database: ${database.kind}; inline job worker started`);
  } else {
    console.log(`[paraphe] database: ${database.kind}; inline job worker off (WORKER_MODE=off)`);
  }
}

/** DEMO_DATA: a failure is reported, never fatal (the app runs without the demo documents). */
async function addDemoData(db: Db, orgId: string | null) {
  if (!orgId) return;
  try {
    const added = await fillDemoData(db, orgId);
    if (added) console.log(`[paraphe] demo data (DEMO_DATA=true): ${added.contacts} clients and ${added.documents} documents added to the demo org`);
  } catch (error) {
    console.error('[paraphe] demo data (DEMO_DATA=true) could not be added:', error);
  }
}

/**
 * PA_SANDBOX=true (development): the sandbox PA in a process of its own (scripts/pa-sandbox.ts, ended with this
 * server, however it ends: the child leaves when its IPC channel closes), and the demo org connected to it when it has no PA. A failure is reported, never fatal.
 */
async function startDevSandbox(db: Db, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/pa-sandbox.ts'], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, PA_SANDBOX_PORT: String(port) } });
  child.on('error', (error) => console.error('[paraphe] the sandbox PA could not start (PA_SANDBOX=true):', error));
  process.once('exit', () => child.kill());
  const orgId = await demoOrgId(db);
  if (orgId && (await connectToDevSandbox(db, orgId, `http://127.0.0.1:${port}`).catch(() => false))) {
    console.log(`[paraphe] PA_SANDBOX=true: the demo org is connected to the sandbox PA on http://127.0.0.1:${port} (Réglages → Facturation électronique)`);
  }
}
