import { defineModule } from '@/lib/platform/manifest';
import { closeOnSignature, closeSignedQuoteJob } from './jobs';

/**
 * A signed quote closes the sale (issue 18 item 6, docs/signature.md): billing's reaction to
 * `signature.envelope.completed`. Its own module because the cascade reaches documents, sending and payments, and
 * documents sits below the other two (they import it): it cannot call them without an import circle. It imports
 * nothing of lib/domain/signature: it knows the event's payload only.
 */
export const manifest = defineModule({
  name: 'signed-quotes',
  jobs: [closeSignedQuoteJob],
  subscriptions: [closeOnSignature],
});

export { type CascadeResult, type CascadeStop, closeSignedQuote, installmentDueDate, installmentShares } from './close-sale';
export { type CloseSaleJobData, closeOnSignature, closeSignedQuoteJob } from './jobs';
