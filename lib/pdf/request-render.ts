import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders, documents } from '@/db/schema';
import { loadDocument } from '@/lib/billing/documents';
import { cancelDocument } from '@/lib/billing/cancel-document';
import { finalizeDocument } from '@/lib/billing/finalize-document';
import { conflict } from '@/lib/errors';
import { enqueue } from '@/lib/jobs/queue';
import { type RenderJobData, renderDocumentJob } from './jobs';
import type { DocumentRender } from './schemas';

/**
 * Queues the render of a finalized document. A failure to queue is logged, not raised: the document stays
 * `pending` and the sweeper (pdf.sweep-renders) queues it again, so a lost enqueue is never permanent.
 */
export async function enqueueRender(orgId: string, documentId: string): Promise<void> {
  try {
    await enqueue<RenderJobData>(renderDocumentJob, { org_id: orgId, document_id: documentId });
  } catch (err) {
    console.error(`[pdf] could not queue the render of document ${documentId}; the sweeper will retry`, err);
  }
}

/** After a change that finalized documents has committed (a finalization, a cancellation's credit note). */
export async function enqueueRenders(orgId: string, documentIds: readonly string[]): Promise<void> {
  for (const id of documentIds) await enqueueRender(orgId, id);
}

/** The credit note a cancellation just issued and finalized, if any, still waiting for its PDF. */
export async function pendingCreditNotesOf(db: Db, orgId: string, invoiceId: string): Promise<string[]> {
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(eq(documents.org_id, orgId), eq(documents.avoir_for_id, invoiceId), isNotNull(documents.finalized_at), eq(documents.render_status, 'pending')),
    );
  return rows.map((r) => r.id);
}

export async function renderState(db: Db, orgId: string, documentId: string): Promise<DocumentRender> {
  const doc = await loadDocument(db, orgId, documentId);
  const [render] = await db
    .select()
    .from(documentRenders)
    .where(and(eq(documentRenders.org_id, orgId), eq(documentRenders.document_id, documentId)));
  return {
    document_id: doc.id,
    render_status: doc.render_status,
    attempts: render?.attempts ?? 0,
    rendered_at: render?.rendered_at?.toISOString() ?? null,
    size: render?.size ?? null,
    sha256: render?.sha256 ?? null,
    facturx_profile: render?.facturx_profile ?? null,
  };
}

/**
 * POST /v1/invoices/{id}/render: queues the document's render again. A failed render goes back to pending
 * (with a fresh set of retries); a stored PDF is never replaced, so a ready document is left as it is.
 */
export async function requestRender(db: Db, orgId: string, documentId: string): Promise<DocumentRender> {
  const doc = await loadDocument(db, orgId, documentId);
  if (!doc.finalized_at) {
    throw conflict('not_finalized', 'A draft has no stored PDF: finalize it first, or see it with GET /v1/invoices/{id}/preview.');
  }
  if (doc.render_status === 'failed') {
    await db
      .update(documents)
      .set({ render_status: 'pending' })
      .where(and(eq(documents.org_id, orgId), eq(documents.id, documentId), eq(documents.render_status, 'failed')));
  }
  if (doc.render_status !== 'ready') await enqueueRender(orgId, documentId);
  return renderState(db, orgId, documentId);
}

/** Finalizes (lib/billing), then queues the PDF once that transaction has committed: what every caller wants. */
export async function finalizeAndQueueRender(db: Db, orgId: string, documentId: string) {
  const document = await finalizeDocument(db, orgId, documentId);
  await enqueueRenders(orgId, [document.id]);
  return document;
}

/** Cancels (lib/billing), then queues the render of the credit note a cancelled invoice or deposit was issued. */
export async function cancelAndQueueRender(db: Db, orgId: string, documentId: string) {
  const document = await cancelDocument(db, orgId, documentId);
  await enqueueRenders(orgId, await pendingCreditNotesOf(db, orgId, documentId));
  return document;
}
