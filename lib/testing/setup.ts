import { beforeAll } from 'vitest';

// Every test file runs with the app's modules installed, as the server, the worker and the CLI do. Loaded in a hook,
// after the test file's own imports, so that the file's vi.mock() applies to the modules too.
beforeAll(async () => {
  await import('@/lib/modules');
});
