import { defineJob, enqueue } from '@/lib/jobs';
import type { Db } from '@/db/client';
import { subscribe } from '@/lib/events';
import { RENDER_EXPIRY_SECONDS, renderStoredDocument } from './render-stored-document';

export interface RenderJobData {
  org_id: string;
  document_id: string;
}

/** 5 attempts, 15 s then doubling (≈ 4 min in all); a render that runs 5 minutes has hung. */
export const renderDocumentJob = defineJob<RenderJobData>({
  name: 'pdf.render-document',
  retryLimit: 4,
  retryDelaySeconds: 15,
  retryBackoff: true,
  expireInSeconds: RENDER_EXPIRY_SECONDS,
  async handle(data, { db, attempt }) {
    await renderStoredDocument(db, data.org_id, data.document_id, { lastAttempt: attempt > renderDocumentJob.retryLimit });
  },
});

/** Writes the render of a finalized document in the caller's transaction. */
export function enqueueRender(tx: Db, orgId: string, documentId: string) {
  return enqueue(tx, renderDocumentJob, { org_id: orgId, document_id: documentId });
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
