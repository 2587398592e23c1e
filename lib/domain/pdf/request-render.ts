import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders } from '@/db/schema';
import { loadDocument } from '@/lib/domain/documents';
import { conflict } from '@/lib/platform/errors';
import { hasLiveJob } from '@/lib/platform/jobs';
import { enqueueRender, renderDocumentJob } from './jobs';
import { STALE_RENDERING_MS } from './render-stored-document';
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
 * POST /v1/invoices/{id}/render: sees that the document's render happens. A stored PDF is never replaced, so a ready
 * document is left as it is. A failed render goes back to pending with a fresh job (a fresh set of retries). A
 * pending or rendering one gets a fresh job when none of its jobs will still run: the last one ended, or it is active
 * past its expiry (its worker died and pg-boss's maintenance has not failed it yet). The fresh job starts once the
 * `rendering` claim is stale, the moment it may take it over. Under the document's row lock, so that two requests
 * at once queue one job.
 */
export async function requestRender(db: Db, orgId: string, documentId: string): Promise<DocumentRender> {
  const doc = await loadDocument(db, orgId, documentId);
  if (!doc.finalized_at) {
    throw conflict('not_finalized', 'A draft has no stored PDF: finalize it first, or see it with GET /v1/invoices/{id}/preview.');
  }
  if (doc.render_status !== 'ready') {
    const key = eq(documentRenders.document_id, documentId);
    await db.transaction(async (tx) => {
      // pdf's own row, created pending if no render claimed one yet, and locked: two requests at once queue one job.
      await tx.insert(documentRenders).values({ document_id: documentId, org_id: orgId }).onConflictDoNothing({ target: documentRenders.document_id });
      const [render] = await tx.select({ status: documentRenders.status, started_at: documentRenders.started_at }).from(documentRenders).where(key).for('update');
      if (!render || render.status === 'ready') return;
      if (render.status === 'failed') {
        await tx.update(documentRenders).set({ status: 'pending', updated_at: new Date() }).where(key);
      } else if (await hasLiveJob(tx, renderDocumentJob, { document_id: documentId })) {
        return;
      }
      const staleAt = render.status === 'rendering' && render.started_at ? new Date(render.started_at.getTime() + STALE_RENDERING_MS) : null;
      await enqueueRender(tx, orgId, documentId, staleAt && staleAt > new Date() ? staleAt : undefined);
    });
  }
  return renderState(db, orgId, documentId);
}
