import { closeDatabase } from '@/db/client';
import { webhooksAllowPrivate } from '@/lib/config';
import { startWorkers, stopQueue } from '@/lib/jobs';
import { jobs } from '@/lib/modules';

// A separate worker process: with PostgreSQL, run as many as needed (WORKER_MODE=off on the app instances).
if (webhooksAllowPrivate()) console.warn('[paraphe] WEBHOOKS_ALLOW_PRIVATE=true: webhooks may target http and private, loopback and link-local addresses (tests and local development only)');
await startWorkers(jobs);
console.log('[paraphe] worker started');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await stopQueue();
    await closeDatabase();
    process.exit(0);
  });
}
