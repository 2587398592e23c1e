import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders, documents } from '@/db/schema';
import { loadDocument } from '@/lib/documents';
import { conflict } from '@/lib/errors';
import { enqueueRender } from './jobs';
import type { DocumentRender } from './schemas';

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
  if (doc.render_status !== 'ready') {
    await db.transaction(async (tx) => {
      await tx
        .update(documents)
        .set({ render_status: 'pending' })
        .where(and(eq(documents.org_id, orgId), eq(documents.id, documentId), eq(documents.render_status, 'failed')));
      await enqueueRender(tx, orgId, documentId);
    });
  }
  return renderState(db, orgId, documentId);
}
