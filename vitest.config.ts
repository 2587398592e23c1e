import path from 'node:path';
import { defineConfig } from 'vitest/config';

// DATABASE_URL unset → each test worker runs on its own in-memory PGlite; set → the PostgreSQL it names.

/**
 * Suites whose subject does not depend on the database engine — what is checked is a PDF, an XML or a compiled
 * stylesheet, the database only stores the documents they start from — run in the PGlite pass only: they are the
 * slowest (the JVM validators, 52 finalizations through the e-invoice validation), and CI runs both passes on 2 cores.
 */
const ENGINE_INDEPENDENT = ['lib/domain/pdf/facturx.test.ts', 'lib/domain/pdf/render.test.ts', 'lib/domain/pdf/compliance-matrix.test.ts', 'lib/domain/facturx/einvoice-validation.test.ts', 'lib/domain/facturx/jvm-schematron.test.ts', 'lib/platform/openapi/lint.test.ts', 'lib/platform/openapi/descriptions.test.ts', 'scripts/**/*.test.ts',
  // Untrusted files in the sandbox's workers, the received invoices' parser, the fonts of a PDF, the start's config check
  // (child processes): the database, where there is one, only stores what they read.
  'lib/platform/sandbox/*.test.ts', 'lib/domain/einvoicing/parse/*.test.ts', 'lib/domain/signature/hostile-upload.test.ts', 'lib/domain/pdf/hostile-text.test.ts', 'lib/composition/config-check.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(process.env.DATABASE_URL ? ENGINE_INDEPENDENT : [])],
    // Every test request comes from the same (unknown) address: the per-address throttle of invalid API keys
    // (lib/platform/next/throttle.ts) would answer the suite's many 401 checks with 429; its own test sets a low threshold.
    // EINVOICE_VALIDATOR: SaxonJS, whose workers start in a second; the JVM compiles the stylesheets for seconds in every
    // test process (jvm-schematron.test.ts proves both engines answer the same; e2e runs the server's default, the JVM).
    env: { EINVOICE_VALIDATOR: 'saxonjs', PGLITE_DIR: 'memory', AUTH_SECRET: 'test-secret-not-for-production', WORKER_MODE: 'off', NODE_ENV: 'test', API_KEY_FAILURES_PER_MINUTE: '1000000' },
    pool: 'forks',
    // A worker runs its files one after the other in one process with one module graph, instead of a new process per
    // file: the app's modules, its dependencies and the e-invoice validators load once per worker (about 3.5 s of CPU a
    // file before, 176 files; the PGlite pass went from 984 s to about 440 s). lib/testing/setup.ts undoes what a file
    // changes of the process (environment, database); a file that needs a fresh module for vi.mock resets them itself.
    isolate: false,
    // Two files at once (vitest's default is one worker on 2 cores). PGlite: every test file has its own in-memory
    // database; PostgreSQL: every worker its own copy of the test database (lib/testing/worker-database.ts).
    maxWorkers: 2,
    // Every finalization runs the e-invoice validation (docs/facturx.md, "Validation before sealing"): seconds on a
    // loaded 2-core machine, and a process's first one also loads the compiled schematrons.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['lib/testing/global-setup.ts'],
    setupFiles: ['lib/testing/setup.ts'],
  },
});
