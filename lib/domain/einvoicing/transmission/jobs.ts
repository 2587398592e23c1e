import { defineJob } from '@/lib/platform/jobs';
import { submitTransmission } from './submit';

export interface TransmissionJobData {
  org_id: string;
  document_id: string;
}

/**
 * One submission per finalized document that needs one (written by transmitOnFinalize in the finalization's
 * transaction, or by the retry action). 10 attempts, 10 s then doubling (about 1 h 25 min in all): the first ones
 * mostly wait for lib/domain/pdf's render (a few seconds; its own retries take up to ~3 min), the later ones ride out a PA
 * that is down. The last attempt's failure is final: `failed` with the reason, and a retry action for staff.
 * A worker killed mid-upload: the job expires after 60 s and is retried; the retry finds the intent recorded and
 * searches the PA for the flow before submitting anything (submit.ts).
 */
export const submitTransmissionJob = defineJob<TransmissionJobData>({
  name: 'einvoicing.submit-transmission',
  retryLimit: 9,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 60,
  async handle(data, { db, attempt }) {
    await submitTransmission(db, data.org_id, data.document_id, { lastAttempt: attempt > submitTransmissionJob.retryLimit });
  },
});
