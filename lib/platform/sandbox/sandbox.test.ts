import { describe, expect, it } from 'vitest';
import { slowestHealthzWhile } from '@/lib/testing/responsiveness';
import { runSandboxed, SandboxRefusal, sandboxTask } from './index';

const FILE = 'lib/platform/sandbox/testing/tasks.ts';
const reverse = sandboxTask<Uint8Array, Uint8Array>(FILE, 'reverse', { timeMs: 10_000, heapMb: 64 });
const spin = sandboxTask<number, number>(FILE, 'spin', { timeMs: 1_500, heapMb: 64 });
const hog = sandboxTask<void, number>(FILE, 'hog', { timeMs: 20_000, heapMb: 48 });
const fail = sandboxTask<string, never>(FILE, 'fail', { timeMs: 10_000, heapMb: 64 });

describe('the sandbox', () => {
  it('runs a task in a worker: bytes go and come back intact', async () => {
    const answer = await runSandboxed(reverse, Uint8Array.from([1, 2, 3, 250]));
    expect([...answer]).toEqual([250, 3, 2, 1]);
  });

  it('a run past its time is refused, and the thread that asked kept serving meanwhile', async () => {
    const run = runSandboxed(spin, 60_000);
    const delay = await slowestHealthzWhile(run);
    await expect(run).rejects.toMatchObject({ name: 'SandboxRefusal', reason: 'timeout' });
    expect(delay).toBeLessThan(1_000);
    // The worker that spun was ended: the next run gets a fresh one and answers.
    expect(await runSandboxed(spin, 10)).toBeGreaterThan(0);
  });

  it('a run past its heap is refused as memory, and the next run works', async () => {
    await expect(runSandboxed(hog, undefined)).rejects.toMatchObject({ reason: 'memory' });
    expect([...(await runSandboxed(reverse, Uint8Array.from([7])))]).toEqual([7]);
  });

  it('a task that throws is a refusal naming the task, not an unhandled error', async () => {
    const refusal = await runSandboxed(fail, 'broken on purpose').catch((e) => e);
    expect(refusal).toBeInstanceOf(SandboxRefusal);
    expect(refusal).toMatchObject({ reason: 'crashed', task: `${FILE}#fail` });
    expect(refusal.message).toContain('broken on purpose');
  });

  it('runs one at a time per process (SANDBOX_THREADS=1): a second run waits for the first, then runs within its own time', async () => {
    const started = performance.now();
    const [a, b] = await Promise.all([runSandboxed(spin, 600), runSandboxed(spin, 600)]);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    // Each spun 600 ms of a 1.5 s limit: one after the other (≥ 1.2 s in all), and neither timed out waiting.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_150);
  });
});
