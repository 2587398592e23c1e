import net from 'node:net';
import { closeDatabase } from '@/db/client';
import { shutdownGraceSeconds } from '@/lib/platform/config';
import { stopQueue } from '@/lib/platform/jobs';
import { log } from '@/lib/platform/log';
import { closeSandbox } from '@/lib/platform/sandbox';
import { stopTelemetry } from '@/lib/platform/telemetry';

/**
 * The one stop sequence of the server and the worker (docs/operations.md, « Stopping »). On SIGTERM or SIGINT: stop
 * taking jobs (and, in the server, new HTTP connections), give the running ones SHUTDOWN_GRACE_SECONDS to finish,
 * hand back the jobs still running (due again at once for another process, lib/platform/jobs/queue.ts stopQueue),
 * close the sandbox's workers, flush the traces, close the database, exit 0. A second signal during the stop exits
 * at once (130 for SIGINT, 143 for SIGTERM).
 */
export interface GracefulStopOptions {
  /** The Next.js server: its HTTP server stops accepting connections and its requests in flight get the grace too. */
  server?: boolean;
  /** Runs first, on the signal (the worker logs its e-invoice validation counts). */
  beforeStop?: () => void;
}

const installedKey = Symbol.for('paraphe.graceful-stop');
type G = typeof globalThis & { [installedKey]?: boolean };

/** Registers the stop on SIGTERM and SIGINT, once per process (instrumentation may load this module in several bundles). */
export function installGracefulStop(options: GracefulStopOptions = {}) {
  const g = globalThis as G;
  if (g[installedKey]) return;
  g[installedKey] = true;
  if (options.server && process.env.NODE_ENV === 'production' && !process.env.NEXT_MANUAL_SIG_HANDLE) {
    log.warn({}, "NEXT_MANUAL_SIG_HANDLE is not set: next's own signal handler exits once the HTTP server is closed, before the running jobs are handed back (`npm start` sets it)");
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (stopping) {
      log.error({ signal, exit_code: code }, 'second signal during the stop: exiting at once');
      process.exit(code);
    }
    stopping = true;
    void gracefulStop(signal, options).then((exitCode) => process.exit(exitCode));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** The stop itself: resolves with the exit code (0, or 1 when a step failed). */
export async function gracefulStop(signal: NodeJS.Signals | 'manual', options: GracefulStopOptions = {}): Promise<number> {
  const grace = shutdownGraceSeconds();
  const began = Date.now();
  options.beforeStop?.();
  log.info({ signal, role: options.server ? 'server' : 'worker', grace_seconds: grace }, 'stopping');
  // A handler handed back goes on until the exit; what it does against the closed pools then fails, and pg-boss's
  // completion of it is not awaited: noted, never a crash of the stop.
  process.on('unhandledRejection', (reason) => log.warn({ err: reason }, 'after the hand-back: a job cut by the stop failed'));
  // A stop that hangs (a pool that never drains) still ends, after the grace and a margin.
  setTimeout(() => {
    log.error({ grace_seconds: grace }, 'the stop did not end within the grace and 15 s: exiting');
    process.exit(1);
  }, (grace + 15) * 1000).unref();
  let code = 0;
  const step = async (name: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      code = 1;
      log.error(error, `stop: ${name} failed`);
    }
  };
  const http = options.server ? closeHttpServers(grace) : Promise.resolve(0);
  await step('job workers', async () => {
    const { finished, handedBack } = await stopQueue({ graceSeconds: grace });
    const kinds: Record<string, number> = {};
    for (const job of handedBack) kinds[job.kind] = (kinds[job.kind] ?? 0) + 1;
    log.info({ finished, handed_back: handedBack.length, handed_back_kinds: kinds, handed_back_ids: handedBack.map((job) => job.id) }, 'job workers stopped');
  });
  await step('HTTP server', async () => {
    const cut = await http;
    if (options.server) log.info({ connections_cut: cut }, 'HTTP server closed');
  });
  await step('sandbox', () => closeSandbox());
  await step('telemetry', () => stopTelemetry());
  await step('database', () => closeDatabase());
  log.info({ duration_ms: Date.now() - began, exit_code: code }, 'stopped');
  return code;
}

/**
 * Next's HTTP server, unreachable from instrumentation otherwise (a local of next's start-server.js): the listening
 * servers among the process's handles. Each stops accepting connections and closes its idle keep-alive ones; the
 * requests in flight get the grace, then their connections are cut. Resolves with how many were cut.
 */
async function closeHttpServers(graceSeconds: number): Promise<number> {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const servers = handles.filter((h): h is net.Server => h instanceof net.Server && h.listening);
  if (servers.length === 0) log.warn({}, 'no listening HTTP server found: requests in flight are not waited for');
  let cut = 0;
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          const http = server as net.Server & { closeIdleConnections?: () => void; closeAllConnections?: () => void };
          const timer = setTimeout(() => {
            cut++;
            http.closeAllConnections?.();
          }, graceSeconds * 1000);
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          http.closeIdleConnections?.();
        }),
    ),
  );
  return cut;
}
