import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes, from /proc (Linux): what a bench prints beside its wall times, since on a machine shared with
 * other work the CPU an operation costs holds where its latency does not.
 */
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU milliseconds (user + system, all threads) `pid` has used so far; 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** `pid` and every process it started, recursively (the e-invoice validation's JVM is started from a thread). */
export function processTree(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (listed) children.push(...listed.split(/\s+/).map(Number));
    }
  } catch {
    // Gone meanwhile.
  }
  return [pid, ...children.flatMap(processTree)];
}

/** A CPU clock over a set of processes: `elapsed()` is the CPU each used since `start`, a process started since counting from 0. */
export function cpuClock(pids: () => number[]) {
  const at = new Map(pids().map((pid) => [pid, cpuMs(pid)]));
  return {
    elapsed(): Map<number, number> {
      return new Map(pids().map((pid) => [pid, cpuMs(pid) - (at.get(pid) ?? 0)]));
    },
  };
}

export const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** The command name of `pid` (`next-server`, `java`), or its pid once it is gone. */
export function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return String(pid);
  }
}
