import type { Db } from '@/db/client';
import { loadRenderModel } from './model';
import { renderBounded } from './render-bounded';
import type { RenderedDocument } from './render-document';

/**
 * GET /v1/invoices/{id}/preview: the document rendered now, stored nowhere. A draft prints what finalizing
 * it would freeze (live seller and buyer), watermarked "BROUILLON"/"DRAFT" and without number; a finalized
 * document renders exactly as its stored PDF does.
 */
export async function previewDocument(db: Db, orgId: string, documentId: string): Promise<RenderedDocument> {
  return renderBounded(await loadRenderModel(db, orgId, documentId));
}
