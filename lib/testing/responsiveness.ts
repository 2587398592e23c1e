import { GET as healthz } from '@/app/healthz/route';

/**
 * The slowest answer of `GET /healthz`, asked every 50 ms on this thread for as long as `work` runs: what another
 * request waited while a hostile file was being read. A parse or render on this thread shows as seconds.
 */
export async function slowestHealthzWhile(work: Promise<unknown>): Promise<number> {
  let done = false;
  work.then(
    () => (done = true),
    () => (done = true),
  );
  let slowest = 0;
  while (!done) {
    const asked = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = healthz();
    await res.json();
    slowest = Math.max(slowest, performance.now() - asked - 50);
  }
  return slowest;
}
