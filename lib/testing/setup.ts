import { afterAll, beforeAll } from 'vitest';
import { workerDatabaseUrl } from './worker-database';

// PostgreSQL: this worker's own copy of the test database (global-setup made one per worker). Kept once per process:
// the setup file runs again before each test file.
if (process.env.DATABASE_URL && process.env.VITEST_POOL_ID && !process.env.TEST_DATABASE_BASE_URL) {
  process.env.TEST_DATABASE_BASE_URL = process.env.DATABASE_URL;
  process.env.DATABASE_URL = workerDatabaseUrl(process.env.DATABASE_URL, process.env.VITEST_POOL_ID);
}

// Every test file runs with the app's modules installed, as the server, the worker and the CLI do. Loaded in a hook,
// after the test file's own imports (a no-op once its worker has loaded them for an earlier file).
beforeAll(async () => {
  // A file that chose an engine of its own (a PGLITE_DIR, a DATABASE_URL set at its top) does not get the kept one.
  if (!sharesWorkerPglite()) await (await import('@/db/client')).closeDatabase();
  await import('@/lib/composition/modules');
});

// Test files share their worker's process and modules (vitest.config.ts, isolate: false). What one file changes of the
// process is undone when it ends: the environment as it was before the file loaded (files set thresholds at their top),
// the job queue stopped, and the database closed unless it is the worker's in-memory PGlite. That one is kept for the
// worker's next file, as the worker's PostgreSQL copy is: every test makes its own org, so files share a database on
// both engines alike, and a fresh PGlite loaded from the template cost about a second of CPU per file (218 files).
const envBefore = { ...process.env };
afterAll(async () => {
  const keep = sharesWorkerPglite();
  for (const name of Object.keys(process.env)) if (!(name in envBefore)) delete process.env[name];
  Object.assign(process.env, envBefore);
  const [{ stopQueue }, { closeDatabase }] = await Promise.all([import('@/lib/platform/jobs'), import('@/db/client')]);
  await stopQueue();
  if (!keep) await closeDatabase();
});

/** The file runs on the worker's in-memory PGlite (vitest.config.ts), not on an engine it chose itself. */
function sharesWorkerPglite() {
  return !process.env.DATABASE_URL && process.env.PGLITE_DIR === 'memory';
}
