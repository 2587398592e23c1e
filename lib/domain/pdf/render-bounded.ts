import { ApiError } from '@/lib/platform/errors';
import { runSandboxed, SandboxRefusal, sandboxTask } from '@/lib/platform/sandbox';
import type { RenderModel } from './model';
import type { RenderedDocument } from './render-document';

/*
 * Our own documents are rendered in a worker thread of lib/platform/sandbox too, not on the thread that serves
 * requests or runs jobs: the thread's V8 heap is capped, so a process that renders stays small (docs/facturx.md,
 * « Render memory and CPU »). Uncapped, V8 let the old space grow to about 3.5 times the 50 MB a render keeps live
 * before collecting the dead layout trees (a rendering process peaked at 350–390 MB); capped at 128 MB it collects
 * sooner. A document of many lines needs more: it goes to a larger worker at once, and so does one the small worker
 * could not hold (refused for memory), so that every document within the API's limits renders.
 */
const SMALL = { timeMs: 120_000, heapMb: 128, idleMs: 10 * 60_000 };
const LARGE = { timeMs: 300_000, heapMb: 1024, idleMs: 60_000 };
/**
 * Lines past which a document goes to the large worker. Measured on 3 Dec: invoices of 60 to 450 lines of 60 characters
 * all render within the small worker's 128 MB; a long document goes to the large one anyway, because long details
 * weigh more than the count says, and a refusal for memory would cost a whole layout before the large worker's.
 */
const LARGE_AFTER_LINES = 60;

export const renderTask = sandboxTask<RenderModel, RenderedDocument>('lib/domain/pdf/render-task.ts', 'renderInWorker', SMALL);
export const largeRenderTask = sandboxTask<RenderModel, RenderedDocument>('lib/domain/pdf/render-task.ts', 'renderInWorker', LARGE);

/**
 * renderDocument in the sandbox. Every worker busy for too long is a 503 `busy` (a request's answer; a job tries again
 * later); a render past its time, or the large worker's memory, is an error, never a file.
 */
export async function renderBounded(model: RenderModel): Promise<RenderedDocument> {
  try {
    if (model.items.length > LARGE_AFTER_LINES) return await runSandboxed(largeRenderTask, model);
    try {
      return await runSandboxed(renderTask, model);
    } catch (error) {
      if (!(error instanceof SandboxRefusal) || error.reason !== 'memory') throw error;
      return await runSandboxed(largeRenderTask, model);
    }
  } catch (error) {
    if (!(error instanceof SandboxRefusal)) throw error;
    if (error.reason === 'busy') throw new ApiError(503, 'busy', `The PDF could not be rendered now: ${error.message}`, null, { 'Retry-After': '10' });
    throw new Error(`The PDF could not be rendered (${error.reason}): ${error.message}`, { cause: error });
  }
}
