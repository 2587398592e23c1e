import { type ChildProcess, spawn } from 'node:child_process';
import { execSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMs } from './cpu';
import { failIf, SMOKE } from './smoke';

/**
 * Starts the built app (`npm run build` first) on a fresh database: PostgreSQL (a new database on
 * 127.0.0.1:5432) when it answers and BENCH_ENGINE is not "pglite", else PGlite in a temp directory.
 * Returns the base URL, the demo API key the seed printed, and a stop function. BENCH_SERVER_LOG=<file> appends the
 * server's output to that file (for a `--trace-gc` or event-loop probe passed as node flags).
 */
export async function startServer(basePort = 3300, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []) {
  // bench:smoke runs benches side by side, each lane on ports of its own.
  const port = basePort + Number(process.env.BENCH_PORT_OFFSET ?? 0);
  if (!existsSync('.next/BUILD_ID')) throw new Error('Build the app first: npm run build');
  const usePg = process.env.BENCH_ENGINE !== 'pglite' && canReachPostgres();
  const dbName = `paraphe_bench_${process.pid}`;
  const tmp = mkdtempSync(path.join(tmpdir(), 'paraphe-bench-'));
  if (usePg) execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${dbName}"`);
  const env = {
    ...sealingCertificate(tmp),
    ...process.env,
    PORT: String(port),
    WORKER_MODE: 'off',
    // As `npm start`: SIGTERM runs the app's graceful stop (lib/composition/shutdown.ts), which stop() checks.
    NEXT_MANUAL_SIG_HANDLE: 'true',
    RATE_LIMIT_POINTS: '1000000000',
    // 32 bytes or more: a production start refuses less (lib/platform/config/schema.ts).
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    APP_BASE_URL: `http://localhost:${port}`,
    ...(usePg ? { DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${dbName}`, DATABASE_POOL_MAX: '20' } : { DATABASE_URL: '', PGLITE_DIR: path.join(tmp, 'pglite') }),
    ...extraEnv,
  };
  const outputListeners: Array<(chunk: string) => void> = [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, 'node_modules/next/dist/bin/next', 'start', '-p', String(port)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const apiKey = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not print a key:\n${out}`)), 60_000);
    let found = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, chunk);
      // Once the key is read, the server's lines (one per request) are only drained: kept and searched whole on every
      // chunk, they cost this process — the load generator's — more CPU with every second of a run.
      if (found) {
        for (const listen of outputListeners) listen(chunk.toString());
        return;
      }
      out += chunk.toString();
      const m = /API key\s+:\s+(paraphe_pk_\w+)/.exec(out);
      if (m) {
        found = true;
        out = '';
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return {
    baseUrl: `http://localhost:${port}`,
    apiKey,
    /** The server process (its CPU time: bench/lib/cpu.ts). */
    pid: child.pid!,
    engine: usePg ? 'PostgreSQL 15' : 'PGlite',
    /** Calls `listen` with each of the server's log lines from now on (its JSON lines: lib/platform/log). */
    onLine(listen: (line: string) => void) {
      let partial = '';
      outputListeners.push((chunk) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) listen(line);
      });
    },
    async stop() {
      const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      // The graceful stop ends with exit 0 (next's own handler would exit 143, a crash otherwise).
      failIf(child.exitCode !== 0, `the server did not stop cleanly on SIGTERM: exit code ${child.exitCode}, signal ${child.signalCode}`);
      if (usePg) execSync(`psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)"`);
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * A production start needs the sealing certificate (docs/signature.md): a throwaway self-signed PKCS#12 made with
 * openssl for the run, unless SIGNATURE_CERT_PATH is already set.
 */
function sealingCertificate(dir: string): Record<string, string> {
  if (process.env.SIGNATURE_CERT_PATH) return {};
  const key = path.join(dir, 'seal.key');
  const crt = path.join(dir, 'seal.crt');
  const p12 = path.join(dir, 'seal.p12');
  execSync(`openssl req -x509 -newkey rsa:2048 -nodes -keyout ${key} -out ${crt} -days 30 -subj "/CN=Paraphe bench seal"`, { stdio: 'ignore' });
  execSync(`openssl pkcs12 -export -inkey ${key} -in ${crt} -out ${p12} -passout pass:bench`, { stdio: 'ignore' });
  return { SIGNATURE_CERT_PATH: p12, SIGNATURE_CERT_PASSWORD: 'bench' };
}

function canReachPostgres(): boolean {
  try {
    execSync('psql -h 127.0.0.1 -U postgres -d postgres -qtc "select 1"', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface LoadResult {
  title: string;
  requestsPerSecond: number;
  /** CPU milliseconds per request of the process `load` was given (`cpuOf`): the figure a busy machine blurs least. */
  cpuMsPerRequest?: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/**
 * One autocannon run; latencies in ms. Any non-2xx answer or connection error fails the bench (failIf). Under
 * BENCH_SMOKE=1 the run is a fixed handful of requests (at most 4 connections) instead of `duration` seconds.
 */
export async function load(title: string, options: autocannon.Options & { cpuOf?: number }): Promise<LoadResult> {
  const { cpuOf, ...timed } = options;
  const { duration: _duration, ...rest } = timed;
  const connections = Math.min(options.connections ?? 32, 4);
  const cpuBefore = cpuOf ? cpuMs(cpuOf) : 0;
  const result = await autocannon(SMOKE ? { ...rest, connections, amount: connections * 5 } : { connections: 32, duration: 10, ...timed });
  // errors counts the timeouts too.
  failIf(result.non2xx || result.errors, `${title}: ${result.non2xx} non-2xx answers, ${result.errors} connection errors or timeouts`);
  return {
    title,
    requestsPerSecond: Math.round(result.requests.average),
    ...(cpuOf && result.requests.total ? { cpuMsPerRequest: Math.round(((cpuMs(cpuOf) - cpuBefore) / result.requests.total) * 1000) / 1000 } : {}),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function printTable(rows: LoadResult[]) {
  console.table(
    rows.map((r) => ({ run: r.title, 'req/s': r.requestsPerSecond, ...(r.cpuMsPerRequest !== undefined ? { 'CPU ms/req': r.cpuMsPerRequest } : {}), 'p50 ms': r.p50, 'p99 ms': r.p99, non2xx: r.non2xx, errors: r.errors })),
  );
}
