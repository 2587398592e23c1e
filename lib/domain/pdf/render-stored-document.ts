import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documentRenders, documents } from '@/db/schema';
import { recordInternalEvent } from '@/lib/platform/events';
import { getStorage, objectKey, sha256Hex } from '@/lib/platform/storage';
import { loadRenderModel } from './model';
import type { DocumentRendered, DocumentRenderFailed } from './schemas';
import { renderBounded } from './render-bounded';

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

/** `skipped`: nothing to do (not finalized, already stored); `busy`: another run holds a fresh claim and may still store it. */
export type RenderOutcome = 'ready' | 'skipped' | 'busy';

/** What a render did, and the file when this call is the one that stored it (the document's file of record). */
export interface RenderResult {
  outcome: RenderOutcome;
  stored: { content: Buffer; fileName: string } | null;
}

const documentKey = (orgId: string, documentId: string) => and(eq(documents.org_id, orgId), eq(documents.id, documentId));
const renderKey = (documentId: string) => eq(documentRenders.document_id, documentId);

/** The document as its events name it (documents' row, read: pdf writes only its own). */
async function renderedDocument(tx: Tx, orgId: string, documentId: string) {
  const [doc] = await tx
    .select({ document_id: documents.id, type: documents.type, number: documents.number, transmission_required: documents.transmission_required })
    .from(documents)
    .where(documentKey(orgId, documentId));
  return doc!;
}

/**
 * Renders a finalized document once and stores it: claims it (pending or failed → rendering, unless another
 * worker holds a fresh claim or it is already stored), renders the PDF/A-3 with its Factur-X XML outside any
 * transaction, puts it under a fresh key, then records key, size and SHA-256, sets `ready` and announces it
 * (`pdf.document_rendered`, internal: its subscribers' jobs in that transaction) — unless someone stored one
 * meanwhile, in which case this copy is deleted: the first stored PDF stays the PDF. On failure the error is kept
 * and the render goes back to `pending` for the next retry, or to `failed` when this was the last attempt (announced
 * by `pdf.document_render_failed`); the error is rethrown so the queue retries with its back-off. The state is the
 * render row's (document_renders.status): pdf writes no other module's table.
 */
export async function renderStoredDocument(db: Db, orgId: string, documentId: string, options: { lastAttempt?: boolean; jobId?: string } = {}): Promise<RenderOutcome> {
  return (await renderAndStore(db, orgId, documentId, options)).outcome;
}

/** renderStoredDocument, with the file it stored: a sender attaches it as rendered instead of reading it back. */
export async function renderAndStore(db: Db, orgId: string, documentId: string, { lastAttempt = true, jobId }: { lastAttempt?: boolean; jobId?: string } = {}): Promise<RenderResult> {
  const claimed = await db.transaction(async (tx) => {
    const [doc] = await tx.select({ finalized_at: documents.finalized_at }).from(documents).where(documentKey(orgId, documentId));
    if (!doc?.finalized_at) return 'skipped' as const;
    // The render row, created pending on the first claim, then locked: two workers claim a document one at a time.
    await tx.insert(documentRenders).values({ document_id: documentId, org_id: orgId }).onConflictDoNothing({ target: documentRenders.document_id });
    const [render] = await tx.select().from(documentRenders).where(renderKey(documentId)).for('update');
    if (!render || render.status === 'ready') return 'skipped' as const;
    if (render.storage_key) {
      // Stored but not marked (a crash between the two writes cannot happen in one transaction, but a manual fix can).
      await tx.update(documentRenders).set({ status: 'ready' }).where(renderKey(documentId));
      return 'skipped' as const;
    }
    const now = new Date();
    // A fresh claim is another run's — unless it is this job's own, retried after its run was cut (a graceful stop hands
    // back what still runs at the end of its grace, lib/platform/jobs stopQueue).
    const ownClaim = jobId !== undefined && render.claimed_by_job === jobId;
    if (render.status === 'rendering' && !ownClaim && render.started_at && now.getTime() - render.started_at.getTime() < STALE_RENDERING_MS) return 'busy' as const;
    await tx
      .update(documentRenders)
      .set({ status: 'rendering', attempts: sql`${documentRenders.attempts} + 1`, started_at: now, claimed_by_job: jobId ?? null, last_error: null, updated_at: now })
      .where(renderKey(documentId));
    return 'claimed' as const;
  });
  if (claimed !== 'claimed') return { outcome: claimed, stored: null };

  try {
    const rendered = await renderBounded(await loadRenderModel(db, orgId, documentId));
    const storage = getStorage();
    const stored = await storage.put(objectKey('documents', orgId, documentId, `${randomUUID()}.pdf`), rendered.pdf, { contentType: 'application/pdf' });
    const kept = await db.transaction(async (tx) => {
      const [render] = await tx.select().from(documentRenders).where(renderKey(documentId)).for('update');
      if (!render || render.storage_key) return false;
      const now = new Date();
      await tx
        .update(documentRenders)
        .set({
          status: 'ready',
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
        .where(renderKey(documentId));
      await recordInternalEvent(tx, orgId, 'pdf.document_rendered', {
        ...(await renderedDocument(tx, orgId, documentId)),
        sha256: stored.sha256,
        size: stored.size,
        facturx_profile: rendered.profile ?? null,
      } satisfies DocumentRendered);
      return true;
    });
    if (!kept) await storage.delete(stored.key);
    return { outcome: 'ready', stored: kept ? { content: Buffer.from(rendered.pdf), fileName: rendered.fileName } : null };
  } catch (err) {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    await db.transaction(async (tx) => {
      const next = lastAttempt ? 'failed' : 'pending';
      // The error on a row not stored yet; its status back from `rendering` (a claim taken over meanwhile is left alone).
      const [row] = await tx
        .update(documentRenders)
        .set({ last_error: message.slice(0, 2000), status: sql`case when ${documentRenders.status} = 'rendering' then ${next} else ${documentRenders.status} end`, updated_at: new Date() })
        .where(and(renderKey(documentId), sql`${documentRenders.storage_key} is null`))
        .returning({ status: documentRenders.status });
      if (lastAttempt && row?.status === 'failed') {
        await recordInternalEvent(tx, orgId, 'pdf.document_render_failed', { ...(await renderedDocument(tx, orgId, documentId)), error: message.slice(0, 2000) } satisfies DocumentRenderFailed);
      }
    });
    throw err;
  }
}
