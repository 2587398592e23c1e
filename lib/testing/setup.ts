import { beforeAll } from 'vitest';
import { workerDatabaseUrl } from './worker-database';

// PostgreSQL: this worker's own copy of the test database (global-setup made one per worker). Kept once per process:
// the setup file runs again before each test file.
if (process.env.DATABASE_URL && process.env.VITEST_POOL_ID && !process.env.TEST_DATABASE_BASE_URL) {
  process.env.TEST_DATABASE_BASE_URL = process.env.DATABASE_URL;
  process.env.DATABASE_URL = workerDatabaseUrl(process.env.DATABASE_URL, process.env.VITEST_POOL_ID);
}

// Every test file runs with the app's modules installed, as the server, the worker and the CLI do. Loaded in a hook,
// after the test file's own imports, so that the file's vi.mock() applies to the modules too.
beforeAll(async () => {
  await import('@/lib/modules');
});
