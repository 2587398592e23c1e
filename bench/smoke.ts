import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * `npm run bench:smoke` (issue 34): every `bench:*` script of package.json, one after the other, at its smoke size
 * (BENCH_SMOKE=1, bench/lib/smoke.ts), through `npm run -s` so that the scripts' env prefixes apply. A bench fails when
 * it exits non-zero (a non-2xx answer, a broken invariant, a crash) or outlasts BENCH_SMOKE_TIMEOUT_S (120 s); times are
 * printed, never judged. One line per bench, a failed bench's output (every line prefixed with its name), a summary;
 * exits 1 when any failed. BENCH_SMOKE_ONLY=auth,pdf runs some of them; BENCH_SMOKE_VERBOSE=1 prints every output.
 * The server benches need the build (`npx next build`) and PostgreSQL on 127.0.0.1:5432.
 */
const TIMEOUT_S = Number(process.env.BENCH_SMOKE_TIMEOUT_S ?? 120);
const VERBOSE = Boolean(process.env.BENCH_SMOKE_VERBOSE);
const LANES = Math.max(1, Number(process.env.BENCH_SMOKE_LANES ?? 2));
const only = process.env.BENCH_SMOKE_ONLY?.split(',').map((s) => `bench:${s.trim().replace(/^bench:/, '')}`);

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
const names = Object.keys(scripts).filter((name) => name.startsWith('bench:') && name !== 'bench:smoke' && (!only || only.includes(name)));
if (only) for (const name of only.filter((n) => !scripts[n])) console.log(`bench smoke: no script ${name} in package.json`);

/** Runs one script in its own process group (killed whole on timeout); its output kept, prefixed with its name. */
function run(name: string, lane: number): Promise<{ ok: boolean; seconds: number; output: string; why: string }> {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', name], {
    // SaxonJS starts in a second where the JVM compiles the stylesheets for 8–20 s at each server start: at smoke size
    // only the answers count (the e2e journeys run the JVM engine; EINVOICE_VALIDATOR set outside wins).
    env: { EINVOICE_VALIDATOR: 'saxonjs', ...process.env, BENCH_SMOKE: '1', BENCH_PORT_OFFSET: String(100 * lane) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child.pid!);
  let output = '';
  // Prefixed, so that no line of a bench can pass for a summary line in CI's count (".ci/run": "N passed", "Tests").
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    if (VERBOSE) process.stdout.write(text.replace(/^(?=.)/gm, `${name} │ `));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, TIMEOUT_S * 1000);
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid!);
      const seconds = (performance.now() - started) / 1000;
      const why = timedOut ? `timed out after ${TIMEOUT_S} s` : code === 0 ? '' : signal ? `killed by ${signal}` : `exit code ${code}`;
      resolve({ ok: !timedOut && code === 0, seconds, output, why });
    });
  });
}

/** The benches running now, each ended with its whole process group (its server, its JVM…) should the runner be stopped. */
const running = new Set<number>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.exit(1);
  });
}

const width = Math.max(...names.map((n) => n.length));
const startedAll = performance.now();
const failed: string[] = [];
console.log(`bench smoke: ${names.length} scripts at BENCH_SMOKE=1, ${TIMEOUT_S} s each at most, ${LANES} at a time`);
const queue = [...names];
await Promise.all(
  Array.from({ length: LANES }, async (_, lane) => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      const result = await run(name, lane);
      console.log(`${name.padEnd(width)}  ${result.ok ? 'ok    ' : 'FAILED'}  ${result.seconds.toFixed(1).padStart(5)} s${result.why ? `  (${result.why})` : ''}`);
      if (!result.ok) {
        failed.push(name);
        if (!VERBOSE) process.stdout.write(`${result.output.trimEnd().replace(/^/gm, `${name} │ `)}\n`);
      }
    }
  }),
);
const total = (performance.now() - startedAll) / 1000;
console.log(`bench smoke: ${names.length - failed.length} scripts ok, ${failed.length} FAILED${failed.length ? ` (${failed.join(', ')})` : ''}, in ${total.toFixed(0)} s`);
if (failed.length || names.length === 0) process.exitCode = 1;
