import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders, documents } from '@/db/schema';
import { getStorage, objectKey, sha256Hex } from '@/lib/platform/storage';
import { loadRenderModel } from './model';
import { renderDocument } from './render-document';

/**
 * A render that runs this long has hung, or its worker died: pg-boss expires its job and retries it. Renders take
 * 0.1–0.5 s (docs/facturx.md); a short expiry is what gets a render whose worker was killed retried within a minute.
 */
export const RENDER_EXPIRY_SECONDS = 30;
/**
 * A `rendering` claim older than the job's expiry is taken over: its job was expired (its worker died or hung), and
 * the job now running is the retry that replaces it.
 */
export const STALE_RENDERING_MS = RENDER_EXPIRY_SECONDS * 1000;

export type RenderOutcome = 'ready' | 'skipped';

/** What a render did, and the file when this call is the one that stored it (the document's file of record). */
export interface RenderResult {
  outcome: RenderOutcome;
  stored: { content: Buffer; fileName: string } | null;
}

const documentKey = (orgId: string, documentId: string) => and(eq(documents.org_id, orgId), eq(documents.id, documentId));

/**
 * Renders a finalized document once and stores it: claims it (pending or failed → rendering, unless another
 * worker holds a fresh claim or it is already stored), renders the PDF/A-3 with its Factur-X XML outside any
 * transaction, puts it under a fresh key, then records key, size and SHA-256 and sets `ready` — unless
 * someone stored one meanwhile, in which case this copy is deleted: the first stored PDF stays the PDF.
 * On failure the error is kept and the document goes back to `pending` for the next retry, or to `failed`
 * when this was the last attempt; the error is rethrown so the queue retries with its back-off.
 */
export async function renderStoredDocument(db: Db, orgId: string, documentId: string, options: { lastAttempt?: boolean } = {}): Promise<RenderOutcome> {
  return (await renderAndStore(db, orgId, documentId, options)).outcome;
}

/** renderStoredDocument, with the file it stored: a sender attaches it as rendered instead of reading it back. */
export async function renderAndStore(db: Db, orgId: string, documentId: string, { lastAttempt = true } = {}): Promise<RenderResult> {
  const claimed = await db.transaction(async (tx) => {
    const [doc] = await tx
      .select({ status: documents.render_status, finalized_at: documents.finalized_at })
      .from(documents)
      .where(documentKey(orgId, documentId))
      .for('update');
    if (!doc?.finalized_at || doc.status === 'ready') return false;
    const [render] = await tx.select().from(documentRenders).where(eq(documentRenders.document_id, documentId)).for('update');
    if (render?.storage_key) {
      // Stored but not marked (a crash between the two writes cannot happen in one transaction, but a manual fix can).
      await tx.update(documents).set({ render_status: 'ready' }).where(documentKey(orgId, documentId));
      return false;
    }
    const now = new Date();
    if (doc.status === 'rendering' && render?.started_at && now.getTime() - render.started_at.getTime() < STALE_RENDERING_MS) return false;
    await tx
      .insert(documentRenders)
      .values({ document_id: documentId, org_id: orgId, attempts: 1, started_at: now })
      .onConflictDoUpdate({
        target: documentRenders.document_id,
        set: { attempts: sql`${documentRenders.attempts} + 1`, started_at: now, last_error: null, updated_at: now },
      });
    await tx.update(documents).set({ render_status: 'rendering' }).where(documentKey(orgId, documentId));
    return true;
  });
  if (!claimed) return { outcome: 'skipped', stored: null };

  try {
    const rendered = await renderDocument(await loadRenderModel(db, orgId, documentId));
    const storage = getStorage();
    const stored = await storage.put(objectKey('documents', orgId, documentId, `${randomUUID()}.pdf`), rendered.pdf, { contentType: 'application/pdf' });
    const kept = await db.transaction(async (tx) => {
      await tx.select({ id: documents.id }).from(documents).where(documentKey(orgId, documentId)).for('update');
      const [render] = await tx.select().from(documentRenders).where(eq(documentRenders.document_id, documentId)).for('update');
      if (!render || render.storage_key) return false;
      const now = new Date();
      await tx
        .update(documentRenders)
        .set({
          storage_key: stored.key,
          sha256: stored.sha256,
          size: stored.size,
          content_type: stored.contentType,
          facturx_profile: rendered.profile,
          xml_sha256: rendered.xml ? sha256Hex(Buffer.from(rendered.xml, 'utf8')) : null,
          rendered_at: now,
          last_error: null,
          updated_at: now,
        })
        .where(eq(documentRenders.document_id, documentId));
      await tx.update(documents).set({ render_status: 'ready' }).where(documentKey(orgId, documentId));
      return true;
    });
    if (!kept) await storage.delete(stored.key);
    return { outcome: 'ready', stored: kept ? { content: Buffer.from(rendered.pdf), fileName: rendered.fileName } : null };
  } catch (err) {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    await db.transaction(async (tx) => {
      await tx
        .update(documentRenders)
        .set({ last_error: message.slice(0, 2000), updated_at: new Date() })
        .where(and(eq(documentRenders.document_id, documentId), sql`${documentRenders.storage_key} is null`));
      await tx
        .update(documents)
        .set({ render_status: lastAttempt ? 'failed' : 'pending' })
        .where(and(documentKey(orgId, documentId), eq(documents.render_status, 'rendering')));
    });
    throw err;
  }
}
