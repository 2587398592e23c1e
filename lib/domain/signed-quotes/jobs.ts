import { subscribe } from '@/lib/platform/events';
import { defineJob } from '@/lib/platform/jobs';

export interface CloseSaleJobData {
  org_id: string;
  quote_id: string;
  envelope_id: string;
}

/** The cascade of one signed quote (./close-sale.ts); its handler is loaded when a job runs, as the other modules' are. */
export const closeSignedQuoteJob = defineJob<CloseSaleJobData>({
  name: 'signed-quotes.close-sale',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 300,
  async handle(data, { db }) {
    const { closeSignedQuote } = await import('./close-sale');
    await closeSignedQuote(db, data.org_id, data.quote_id);
  },
});

interface CompletedEnvelope {
  envelope_id: string;
  source_kind: string;
  source_document_id: string;
}

/**
 * An envelope wrapping a quote (`source_kind` devis) completed: its job is written in the completion's transaction by
 * the event fan-out, so it exists exactly when the signature does. Other envelopes write no job.
 */
export const closeOnSignature = subscribe({
  events: ['signature.envelope.completed'],
  job: closeSignedQuoteJob,
  when: (event) => (event.object as CompletedEnvelope).source_kind === 'devis',
  data: (event) => {
    const envelope = event.object as CompletedEnvelope;
    return { org_id: event.org_id, quote_id: envelope.source_document_id, envelope_id: envelope.envelope_id };
  },
});
