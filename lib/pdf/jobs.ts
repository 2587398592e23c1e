import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders, documents } from '@/db/schema';
import { defineJob } from '@/lib/jobs/define';
import { enqueue } from '@/lib/jobs/queue';
import { renderStoredDocument, STALE_RENDERING_MS } from './render-stored-document';

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
  expireInSeconds: 300,
  async handle(data, { db, attempt }) {
    await renderStoredDocument(db, data.org_id, data.document_id, { lastAttempt: attempt > renderDocumentJob.retryLimit });
  },
});

/** A pending document untouched this long has lost its job (an enqueue that never happened): longer than every back-off. */
export const LOST_PENDING_MS = 5 * 60_000;
const SWEEP_BATCH = 500;

/**
 * Finalized documents whose render is lost — pending with no activity for LOST_PENDING_MS, or rendering with
 * a claim older than STALE_RENDERING_MS — get a new job. Runs across orgs; returns the documents queued.
 */
export async function sweepPendingRenders(db: Db, now = new Date()): Promise<RenderJobData[]> {
  const lost = await db
    .select({ org_id: documents.org_id, id: documents.id })
    .from(documents)
    .leftJoin(documentRenders, eq(documentRenders.document_id, documents.id))
    .where(
      and(
        isNotNull(documents.finalized_at),
        inArray(documents.render_status, ['pending', 'rendering']),
        or(
          and(
            eq(documents.render_status, 'pending'),
            lt(sql`coalesce(${documentRenders.updated_at}, ${documents.finalized_at})`, new Date(now.getTime() - LOST_PENDING_MS)),
          ),
          and(
            eq(documents.render_status, 'rendering'),
            or(isNull(documentRenders.started_at), lt(documentRenders.started_at, new Date(now.getTime() - STALE_RENDERING_MS))),
          ),
        ),
      ),
    )
    .orderBy(documents.id)
    .limit(SWEEP_BATCH);
  const queued = lost.map((doc) => ({ org_id: doc.org_id, document_id: doc.id }));
  for (const data of queued) await enqueue(renderDocumentJob, data);
  return queued;
}

export const sweepRendersJob = defineJob<Record<string, never>>({
  name: 'pdf.sweep-renders',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  cron: '*/2 * * * *',
  async handle(_data, { db }) {
    await sweepPendingRenders(db);
  },
});
