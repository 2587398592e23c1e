import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_EXAMPLES_FILE, type ApiExamples } from '@/lib/platform/openapi';
import type { RecordedCall } from '@/lib/testing/api-examples';

/*
 * `npm run openapi:record-examples [-- <test files>]` (docs/api-examples.md): runs the API test files (every test
 * file that calls routes through lib/testing/http.ts, or the ones given) with RECORD_API_EXAMPLES=1, then writes
 * lib/platform/openapi/examples/api.json: per (operationId, status, code) the call of the first test file in path order (a
 * full page before an empty one). With files given, only the keys they recorded are replaced; without, the whole
 * file is written again (an operation gone loses its examples). Never in CI: lib/platform/openapi/examples/api.test.ts checks
 * the committed file.
 */
const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given
    : // Directly, or through a module's test helpers (lib/<group>/<module>/testing.ts or testing/).
      spawnSync('git', ['grep', '-l', '-E', "testing/http'|/testing'|/testing/[a-z-]+'", '--', '*.test.ts'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-api-examples-'));
const started = Date.now();
const run = spawnSync('npx', ['vitest', 'run', ...files], { stdio: 'inherit', env: { ...process.env, RECORD_API_EXAMPLES: '1', RECORD_API_EXAMPLES_DIR: dir } });
if (run.status !== 0) console.warn('Some tests failed: their calls are recorded all the same (check the examples they gave).');

const calls: RecordedCall[] = readdirSync(dir).flatMap((f) =>
  readFileSync(path.join(dir, f), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedCall),
);
rmSync(dir, { recursive: true, force: true });
const rank = (c: RecordedCall) => [c.empty ? 1 : 0, c.file, c.seq] as const;
const before = (a: RecordedCall, b: RecordedCall) => {
  const [x, y] = [rank(a), rank(b)];
  return x[0] !== y[0] ? x[0] < y[0] : x[1] !== y[1] ? x[1] < y[1] : x[2] < y[2];
};
const chosen = new Map<string, RecordedCall>();
for (const c of calls) if (!chosen.has(c.key) || before(c, chosen.get(c.key)!)) chosen.set(c.key, c);

const examples: ApiExamples = given.length > 0 && existsSync(API_EXAMPLES_FILE) ? JSON.parse(readFileSync(API_EXAMPLES_FILE, 'utf8')) : {};
const sorted = [...chosen.values()].sort((a, b) => a.operationId.localeCompare(b.operationId) || a.status - b.status || (a.code ?? '').localeCompare(b.code ?? ''));
for (const c of sorted) {
  const op = examples[c.operationId] ?? { responses: {} };
  examples[c.operationId] = op;
  if (c.code) {
    const byCode = (op.responses[c.status] ?? {}) as Record<string, unknown>;
    op.responses[c.status] = { ...byCode, [c.code]: c.response };
  } else {
    op.responses[c.status] = c.response;
    // The request of the lowest success status (the recorded ones come sorted).
    const successes = sorted.filter((s) => s.operationId === c.operationId && !s.code);
    if (successes[0] === c && c.request !== null) op.request = c.request;
  }
}
const ordered = Object.fromEntries(
  Object.keys(examples)
    .sort()
    .map((k) => {
      const { request, responses } = examples[k] as (typeof examples)[string];
      return [k, { ...(request !== undefined ? { request } : {}), responses }];
    }),
);
writeFileSync(API_EXAMPLES_FILE, `${JSON.stringify(ordered, null, 2)}\n`);
console.log(`${API_EXAMPLES_FILE}: ${Object.keys(ordered).length} operations, ${chosen.size} examples recorded from ${files.length} test files in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(0);
