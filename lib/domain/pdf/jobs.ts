import { defineJob, enqueue, MAINTENANCE_INTERVAL_SECONDS } from '@/lib/platform/jobs';
import type { Db } from '@/db/client';
import { subscribe } from '@/lib/platform/events';
import { RENDER_EXPIRY_SECONDS, renderStoredDocument } from './render-stored-document';

export interface RenderJobData {
  org_id: string;
  document_id: string;
}

/**
 * 5 attempts, 5 s then doubling with jitter (retries after 5–10, 10–20, 20–40, 40–80 s); a render that runs 30 s has
 * hung. A render whose worker died (a kill, a crash) is retried within a minute: its job expires 30 s after its
 * batch was fetched (at or before it started), pg-boss's maintenance (every 5 s) fails it, and its retry starts
 * 5–10 s later — at worst RECOVERY_SECONDS — and takes the stale `rendering` claim over (render-stored-document.ts).
 */
export const renderDocumentJob = defineJob<RenderJobData>({
  name: 'pdf.render-document',
  retryLimit: 4,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: RENDER_EXPIRY_SECONDS,
  // A monthly run queues thousands: five per fetch, still one render at a time per process. Five renders (≈ 50 ms
  // each, a few hundred under load) fit well within the expiry, which counts from the fetch.
  batchSize: 5,
  sequentialBatch: true,
  async handle(data, { db, attempt, jobId }) {
    const outcome = await renderStoredDocument(db, data.org_id, data.document_id, { lastAttempt: attempt > renderDocumentJob.retryLimit, jobId });
    // Another run holds a fresh claim: it may store the PDF, or it was cut (a stop handed its job back, a crash) and
    // its claim goes stale after RENDER_EXPIRY_SECONDS. Retried with the back-off (5–10, 10–20, 20–40 s…): it finds
    // the PDF stored, or takes the stale claim over. Completing here would leave the document without a PDF.
    if (outcome === 'busy') throw new Error(`document ${data.document_id}: another render holds a fresh claim; retried later`);
  },
});

/**
 * The longest a render whose worker died waits for its retry to start: expiry, then up to two maintenance intervals
 * until pg-boss fails the job (a run can be skipped, lib/platform/jobs/queue.ts), then the first retry's delay with its jitter
 * (at most doubled), then a worker's polling interval (1 s).
 */
export const RECOVERY_SECONDS = RENDER_EXPIRY_SECONDS + 2 * MAINTENANCE_INTERVAL_SECONDS + 2 * renderDocumentJob.retryDelaySeconds + 1;

/** Writes the render of a finalized document in the caller's transaction; it starts no earlier than `startAfter`. */
export function enqueueRender(tx: Db, orgId: string, documentId: string, startAfter?: Date) {
  return enqueue(tx, renderDocumentJob, { org_id: orgId, document_id: documentId }, startAfter ? { startAfter: startAfter.toISOString() } : {});
}

/**
 * Every finalized document gets its PDF: the finalization's event, in its transaction, writes the render job. A
 * cancelled invoice's credit note is finalized in the cancellation, with its own invoice.finalized.
 */
export const renderOnFinalize = subscribe<RenderJobData>({
  events: ['invoice.finalized'],
  job: renderDocumentJob,
  data: (event) => ({ org_id: event.org_id, document_id: (event.object as { id: string }).id }),
});
