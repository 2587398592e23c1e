import { and, eq } from 'drizzle-orm';
import { signatureEnvelopes } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { defineJob } from '@/lib/platform/jobs';
import type { Actor } from './envelopes';
import { log } from '@/lib/platform/log';

export interface BulkSendJobData {
  org_id: string;
  envelope_id: string;
  /** Who asked for the bulk: the `envelope.sent` event records them. */
  actor: Actor;
}

/**
 * Sends one envelope of a bulk request (lib/domain/signature/bulk.ts). Idempotent: an envelope no longer a draft (sent by
 * an earlier try, or cancelled meanwhile) is left alone. A refusal of the send itself (4xx) is final: the draft stays
 * for the back-office to see, and a retry of the bulk request queues it again.
 */
export const bulkSendJob = defineJob<BulkSendJobData>({
  name: 'signature.bulk_send',
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 120,
  // Sends are short database work: several at once so that 100 recipients leave within seconds.
  batchSize: 10,
  async handle(data, { db }) {
    const [row] = await db
      .select({ status: signatureEnvelopes.status })
      .from(signatureEnvelopes)
      .where(and(eq(signatureEnvelopes.org_id, data.org_id), eq(signatureEnvelopes.id, data.envelope_id)));
    if (row?.status !== 'draft') return;
    const { sendEnvelope } = await import('./lifecycle');
    try {
      await sendEnvelope(db, data.org_id, data.envelope_id, data.actor);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) {
        log.warn({ module: 'signature', envelope_id: data.envelope_id, code: err.code }, `signature.bulk_send: envelope ${data.envelope_id} left a draft: ${err.code} ${err.message}`);
        return;
      }
      throw err;
    }
  },
});
