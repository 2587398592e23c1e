// Compiles scripts/worker.ts and the app code it loads into one ES module, dist/worker.mjs, which `npm run worker`
// runs with plain node. Running it under tsx instead costs every process its transpiling loader thread, which each
// job's dynamic import() goes through (≈ 16 % of a worker's CPU in bench:recurring-run, docs/recurring.md) and
// memory (peak RSS 480–510 → 310 MB on a 600-invoice run). Packages stay external: node loads them from node_modules as the server does.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['scripts/worker.ts'],
  outfile: 'dist/worker.mjs',
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // tsconfig keeps JSX for Next.js to compile; the PDF and e-mail templates need React's automatic runtime here.
  jsx: 'automatic',
  logLevel: 'warning',
  write: false,
});
// Written under a temporary name, then renamed: two builds at once (test files run in parallel) never leave a
// half-written file for a node that starts it.
mkdirSync('dist', { recursive: true });
const temporary = `dist/worker.mjs.${process.pid}.tmp`;
writeFileSync(temporary, result.outputFiles[0].contents);
renameSync(temporary, 'dist/worker.mjs');
