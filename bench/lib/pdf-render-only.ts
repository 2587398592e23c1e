import { readFileSync } from 'node:fs';
import type { RenderModel } from '@/lib/domain/pdf/model';
import { closeSandbox } from '@/lib/platform/sandbox';

/**
 * bench:pdf's rendering process: a child that loads the render path alone (no database, no e-invoice validator, which
 * the bench's own process holds) and renders the models it is given (argv: a JSON file, the renders, the warm-up, the
 * way: `thread`, as the app renders — lib/domain/pdf renderBounded, a sandbox worker thread with its capped heap —, or
 * `inline` on the process's own thread, as before issue 36), one at a time. Prints one JSON line: its resident memory
 * after warm-up, its peak (sampled after every render), after the renders, and its heap, so that the figure is a
 * rendering process's, not PGlite's; CPU is the process's, the worker thread's included.
 */
const [file, rendersArg, warmUpArg, way = 'thread'] = process.argv.slice(2);
// Imported as needed: rendering in the thread, this process never loads react-pdf itself.
const render = way === 'inline' ? (await import('@/lib/domain/pdf/render-document')).renderDocument : (await import('@/lib/domain/pdf/render-bounded')).renderBounded;
const renders = Number(rendersArg);
const warmUp = Number(warmUpArg);
// finalized_at and the other timestamps went through JSON as strings.
const models = JSON.parse(readFileSync(file!, 'utf8'), (key, value) => (typeof value === 'string' && key.endsWith('_at') ? new Date(value) : value)) as RenderModel[];
const gc = (globalThis as { gc?: () => void }).gc;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const rssAtStart = process.memoryUsage().rss;
for (let i = 0; i < warmUp; i++) await render(models[i % models.length]!);
gc?.();
const afterWarmUp = process.memoryUsage();
let peak = afterWarmUp.rss;
const started = cpu();
for (let i = 0; i < renders; i++) {
  await render(models[i % models.length]!);
  peak = Math.max(peak, process.memoryUsage().rss);
}
const cpuMs = (cpu() - started) / renders;
gc?.();
const end = process.memoryUsage();
await closeSandbox();
console.log(
  JSON.stringify({ rssAtStart, rssAfterWarmUp: afterWarmUp.rss, heapAfterWarmUp: afterWarmUp.heapUsed, peakRss: Math.max(peak, end.rss), rssEnd: end.rss, heapEnd: end.heapUsed, cpuMs }),
);
