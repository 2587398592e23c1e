import path from 'node:path';
import { Piscina } from 'piscina';
import { sandboxThreads } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { bundledTask } from './bundle';

/**
 * Untrusted files are parsed and rendered here, never on the thread that serves requests or runs jobs: one worker
 * thread per run at a time (SANDBOX_THREADS, default 1), each run bounded by a wall-clock time — which also bounds the
 * CPU it can take, a thread using at most one core — and by a V8 heap, past which the worker dies with the run. A run
 * that exceeds either is refused; the next one gets a fresh worker. Limits are the task's (docs/security.md lists them).
 */
export interface SandboxLimits {
  /** Running time allowed, from the moment a worker takes the run (waiting for a free worker is bounded apart). */
  timeMs: number;
  /** V8 old-generation heap of the worker. */
  heapMb: number;
  /** How long an idle worker is kept (30 s when omitted): a task whose start costs much (fonts, layout engine) keeps it longer. */
  idleMs?: number;
}

declare const io: unique symbol;

/** An export `name` of `file` (a path from the project root), run in a worker with `limits`. */
export interface SandboxTask<I, O> {
  readonly file: string;
  readonly name: string;
  readonly limits: SandboxLimits;
  /** Types only: what the export takes and gives. */
  readonly [io]?: (input: I) => O;
}

export const sandboxTask = <I, O>(file: string, name: string, limits: SandboxLimits): SandboxTask<I, O> => ({ file, name, limits });

export type SandboxRefusalReason = 'timeout' | 'memory' | 'busy' | 'crashed';

/** The run did not finish within its limits (or never started: every worker busy for too long, the queue full). */
export class SandboxRefusal extends Error {
  constructor(
    readonly reason: SandboxRefusalReason,
    readonly task: string,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxRefusal';
  }
}

/** Runs waiting for a worker at most, and for at most this long: a flood of files is refused, not queued without end. */
const MAX_WAITING = 64;
const MAX_WAIT_MS = 60_000;

const WORKER_FILE = path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/platform/sandbox/worker.mjs');

interface State {
  pools: Map<string, Piscina>;
  running: number;
  waiting: Array<() => void>;
}

// On globalThis: Next.js may load this file in several bundles of one process, and all must share the workers.
const key = Symbol.for('paraphe.sandbox');
const state = (): State => {
  const g = globalThis as typeof globalThis & { [key]?: State };
  g[key] ??= { pools: new Map(), running: 0, waiting: [] };
  return g[key];
};

/** One pool per heap size and idle time (a worker's limits are fixed when it starts); idle workers leave, memory with them. */
function poolFor({ heapMb, idleMs = 30_000 }: SandboxLimits): Piscina {
  const { pools } = state();
  const poolKey = `${heapMb}/${idleMs}`;
  let pool = pools.get(poolKey);
  if (!pool) {
    pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: sandboxThreads(),
      idleTimeout: idleMs,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, stackSizeMb: 4 },
    });
    pools.set(poolKey, pool);
  }
  return pool;
}

async function slot(task: string): Promise<() => void> {
  const s = state();
  const release = () => {
    s.running--;
    s.waiting.shift()?.();
  };
  if (s.running < sandboxThreads()) {
    s.running++;
    return release;
  }
  if (s.waiting.length >= MAX_WAITING) throw new SandboxRefusal('busy', task, `${MAX_WAITING} files are already waiting to be read: try again in a moment.`);
  await new Promise<void>((resolve, reject) => {
    const go = () => {
      clearTimeout(timer);
      s.running++;
      resolve();
    };
    const timer = setTimeout(() => {
      const i = s.waiting.indexOf(go);
      if (i >= 0) s.waiting.splice(i, 1);
      reject(new SandboxRefusal('busy', task, `No file reader was free within ${MAX_WAIT_MS / 1000} s: try again in a moment.`));
    }, MAX_WAIT_MS);
    s.waiting.push(go);
  });
  return release;
}

/**
 * The task's answer, or a SandboxRefusal: `timeout` past `limits.timeMs`, `memory` past `limits.heapMb`, `busy` when no
 * worker came free in time, `crashed` when the task threw (a task reports its own refusals in its answer instead).
 * Input and answer cross by structured clone (Uint8Arrays included).
 */
export async function runSandboxed<I, O>(task: SandboxTask<I, O>, input: I): Promise<O> {
  const label = `${task.file}#${task.name}`;
  const module = await bundledTask(task.file);
  const release = await slot(label);
  try {
    return (await poolFor(task.limits).run({ module, name: task.name, input }, { signal: AbortSignal.timeout(task.limits.timeMs) })) as O;
  } catch (error) {
    const err = error as Error & { code?: string };
    if (err.name === 'AbortError') throw new SandboxRefusal('timeout', label, `not done within ${task.limits.timeMs / 1000} s`);
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') throw new SandboxRefusal('memory', label, `needed more than ${task.limits.heapMb} MB of memory`);
    throw new SandboxRefusal('crashed', label, err.message?.split('\n')[0]?.slice(0, 200) ?? 'the reader stopped');
  } finally {
    release();
  }
}

/** Compiles the tasks' bundles ahead of the first file (the production start does, and stops if one cannot be built). */
export async function prepareSandbox(tasks: readonly SandboxTask<never, unknown>[]): Promise<void> {
  await Promise.all([...new Set(tasks.map((t) => t.file))].map((file) => bundledTask(file)));
}

/** Stops the workers (a graceful stop; runs under way are ended). */
export async function closeSandbox(): Promise<void> {
  const { pools } = state();
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}

/**
 * The API's answer to a refused run: 422 `code` on `field` when the file took more than its time or memory (it is
 * the file's doing), 503 `busy` with Retry-After when no worker came free (the server's). Anything else is rethrown.
 */
export function sandboxRefusalError(error: unknown, { code, field, what }: { code: string; field: string; what: string }): Error {
  if (!(error instanceof SandboxRefusal)) return error as Error;
  if (error.reason === 'busy') return new ApiError(503, 'busy', `${error.message}`, null, { 'Retry-After': '10' });
  if (error.reason === 'crashed') return new Error(`${what} could not be read: ${error.task} ${error.message}`);
  return new ApiError(422, code, `${field}: ${what} could not be read within the limits (${error.message}); it is too large or too complex.`, field);
}
