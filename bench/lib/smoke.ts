/**
 * The benches' smoke size (issue 34): `BENCH_SMOKE=1` runs a bench through the same code path with a few operations,
 * connections and seconds, so that CI can run every one of them (`npm run bench:smoke`) and fail on a non-2xx answer
 * or a broken invariant, never on a time. An explicit setting (RUNS=…, DOCUMENTS=…) still wins over both sizes.
 */
export const SMOKE = ['1', 'true', 'yes'].includes((process.env.BENCH_SMOKE ?? '').toLowerCase());
if (SMOKE) console.log('BENCH_SMOKE=1: smoke size; the figures printed measure nothing, the checks still hold');

/** `full` for a measurement, `smoke` under BENCH_SMOKE=1. */
export function size<T>(full: T, smoke: T): T {
  return SMOKE ? smoke : full;
}

/** A number from the environment (`name`), else `full`, or `smoke` under BENCH_SMOKE=1. */
export function sizeFromEnv(name: string, full: number, smoke: number): number {
  const set = process.env[name];
  return set === undefined || set === '' ? size(full, smoke) : Number(set);
}

/** A comma-separated list of numbers from the environment (CONNECTIONS=1,10), else `full`, or `smoke` under BENCH_SMOKE=1. */
export function listFromEnv(name: string, full: string, smoke: string): number[] {
  return (process.env[name] || size(full, smoke)).split(',').map(Number);
}

const broken: string[] = [];

/**
 * When `condition` holds, an invariant broke or a request failed: prints `message` and makes the process exit
 * non-zero (process.exitCode = 1), without stopping the bench (its cleanup still runs). Returns `condition` as a boolean.
 */
export function failIf(condition: unknown, message: string): boolean {
  if (!condition) return false;
  broken.push(message);
  console.error(`FAILED: ${message}`);
  process.exitCode = 1;
  return true;
}

// The reasons again at the very end, where a long output leaves the reader.
process.on('exit', () => {
  if (broken.length) console.error(`bench checks FAILED (${broken.length}):\n${broken.map((m) => `  - ${m}`).join('\n')}`);
});
