import { closeDatabase } from '@/db/client';
import { startWorkers, stopQueue } from '@/lib/jobs/queue';

// A separate worker process: with PostgreSQL, run as many as needed (WORKER_MODE=off on the app instances).
await startWorkers();
console.log('[paraphe] worker started');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await stopQueue();
    await closeDatabase();
    process.exit(0);
  });
}
