import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureBulkBatches, signatureEnvelopes } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import type { BulkSendResult } from './form-schemas';

/** The org's latest bulk requests, newest first (the back-office's list). */
export async function listBulkBatches(db: Db, orgId: string, limit = 20) {
  const rows = await db
    .select()
    .from(signatureBulkBatches)
    .where(eq(signatureBulkBatches.org_id, orgId))
    .orderBy(desc(signatureBulkBatches.id))
    .limit(limit);
  return rows.map((b) => ({ id: b.id, recipient_count: b.recipient_count, sent_count: b.sent_count, failed_count: b.failed_count, created_at: b.created_at.toISOString() }));
}

/** One bulk request's results in request order, each with its envelope's status now (sent by the jobs, or still a draft). */
export async function bulkBatchView(db: Db, orgId: string, id: string) {
  const [batch] = await db
    .select()
    .from(signatureBulkBatches)
    .where(and(eq(signatureBulkBatches.org_id, orgId), eq(signatureBulkBatches.id, id)));
  if (!batch) throw notFound('Bulk send');
  const results = batch.results as BulkSendResult['results'];
  const ids = results.flatMap((r) => (r.envelope_id ? [r.envelope_id] : []));
  const statuses = ids.length
    ? await db
        .select({ id: signatureEnvelopes.id, status: signatureEnvelopes.status })
        .from(signatureEnvelopes)
        .where(and(eq(signatureEnvelopes.org_id, orgId), inArray(signatureEnvelopes.id, ids)))
    : [];
  const statusOf = new Map(statuses.map((s) => [s.id, s.status]));
  return {
    id: batch.id,
    created_at: batch.created_at.toISOString(),
    recipient_count: batch.recipient_count,
    sent_count: batch.sent_count,
    failed_count: batch.failed_count,
    results: results.map((r) => ({ ...r, status: r.envelope_id ? (statusOf.get(r.envelope_id) ?? null) : null })),
  };
}
