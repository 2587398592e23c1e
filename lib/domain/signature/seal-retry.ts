import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureEnvelopes } from '@/db/schema';
import { conflict } from '@/lib/platform/errors';
import { enqueue, hasLiveJob } from '@/lib/platform/jobs';
import { evidenceOf } from './evidence-state';
import { envelopeForEvidence } from './fields';
import { envelopeWithSigners } from './lifecycle';
import { sealEnvelopeJob } from './seal-job';

/**
 * `POST …/seal`: the seal job queued again, with a fresh set of retries, for a finished envelope whose evidence is
 * not stored — failed for good, or pending with no job left to make it (its last attempt's worker died, which pg-boss
 * fails without our handler). Under the envelope's row lock, so two requests at once queue one job. The evidence reads
 * `pending` again; the last cause stays on it until an attempt succeeds.
 */
export async function retrySeal(db: Db, orgId: string, id: string) {
  return db.transaction(async (tx) => {
    const row = await envelopeForEvidence(tx, orgId, id, true);
    const evidence = evidenceOf(row);
    if (!evidence || evidence.status === 'sealed') {
      const why = evidence ? 'its evidence is already sealed' : `the envelope is ${row.status}: only a completed or declined one has evidence to seal`;
      throw conflict('evidence_not_failed', `Nothing to retry: ${why}.`);
    }
    // A failed evidence always gets a job: the job that failed may still read active while pg-boss records its end.
    if (evidence.status === 'pending' && (await hasLiveJob(tx, sealEnvelopeJob, { envelope_id: id }))) {
      throw conflict('evidence_not_failed', 'Nothing to retry: the seal job is still queued or running.');
    }
    await tx.update(signatureEnvelopes).set({ evidence_failed_at: null, updated_at: new Date() }).where(eq(signatureEnvelopes.id, id));
    await enqueue(tx, sealEnvelopeJob, { envelope_id: id });
    return envelopeWithSigners(tx, id);
  });
}
