import type { BillingDocument } from '@/lib/domain/documents';
import type { DocumentRendered, DocumentRenderFailed } from '@/lib/domain/pdf';
import { subscribe } from '@/lib/platform/events';
import { defineJob } from '@/lib/platform/jobs';
import { openTransmission } from './state';
import { submitTransmission } from './submit';

export interface TransmissionJobData {
  org_id: string;
  document_id: string;
}

/**
 * Opens the transmission of a document finalized toward the PA (its einvoicing row `pending`, and its
 * invoice.transmission_updated): the subscription to invoice.finalized below, written in the finalization's
 * transaction — the finalization and its transmission exist together or not at all.
 */
export const openTransmissionJob = defineJob<TransmissionJobData>({
  name: 'einvoicing.open-transmission',
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  async handle(data, { db }) {
    await openTransmission(db, data.org_id, data.document_id);
  },
});

/**
 * One submission per finalized document that needs one, once its Factur-X is stored (written by the subscription to
 * pdf's internal event below, in the render's transaction, or by the retry action). 10 attempts, 10 s then doubling
 * (about 1 h 25 min in all) ride out a PA that is down. The last attempt's failure is final: `failed` with the reason,
 * and a retry action for staff. A worker killed mid-upload: the job expires after 60 s and is retried; the retry finds
 * the intent recorded and searches the PA for the flow before submitting anything (submit.ts).
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

/**
 * A document its finalization sends to the PA (the view says `pending`: documents' frozen transmission_required) gets
 * its einvoicing row. Anything else stays `not_required`.
 */
export const openOnFinalize = subscribe<TransmissionJobData>({
  events: ['invoice.finalized'],
  job: openTransmissionJob,
  when: (event) => (event.object as BillingDocument).transmission_status === 'pending',
  data: (event) => ({ org_id: event.org_id, document_id: (event.object as BillingDocument).id }),
});

/**
 * The submission starts when pdf announces the stored Factur-X (or that its render failed for good: the transmission
 * then fails with that reason) — it never waits on the render by retrying.
 */
export const submitOnRendered = subscribe<TransmissionJobData>({
  events: ['pdf.document_rendered', 'pdf.document_render_failed'],
  job: submitTransmissionJob,
  when: (event) => (event.object as DocumentRendered | DocumentRenderFailed).transmission_required,
  data: (event) => ({ org_id: event.org_id, document_id: (event.object as DocumentRendered | DocumentRenderFailed).document_id }),
});
