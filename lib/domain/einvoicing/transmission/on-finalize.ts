import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents } from '@/db/schema';
import type { BillingDocument } from '@/lib/domain/documents';
import type { EmittedEvent } from '@/lib/platform/events';
import { enqueue } from '@/lib/platform/jobs';
import { submitTransmissionJob } from './jobs';
import { setTransmissionStatus, transmissionRequired } from './state';

/**
 * The module's `onEvents` (lib/platform/events runs it in the transaction that records the events): a document finalized
 * while the org transmits e-invoices, addressed to a French business, becomes `pending` and gets its submission job
 * in that very transaction — the finalization and its transmission exist together or not at all. Anything else
 * stays `not_required` (the column's default). The job waits for the stored Factur-X (lib/domain/pdf renders it after the
 * same event).
 */
export async function transmitOnFinalize(db: Db, emitted: readonly EmittedEvent[]) {
  // lib/platform/events calls the hook inside the transaction that records the events.
  const tx = db as Tx;
  for (const event of emitted) {
    if (event.type !== 'invoice.finalized') continue;
    const view = event.object as BillingDocument;
    const [doc] = await tx
      .select({ type: documents.type, client_snapshot: documents.client_snapshot, transmission_status: documents.transmission_status })
      .from(documents)
      .where(and(eq(documents.org_id, event.org_id), eq(documents.id, view.id)));
    if (doc?.transmission_status !== 'not_required' || !(await transmissionRequired(tx, event.org_id, doc))) continue;
    await setTransmissionStatus(tx, event.org_id, view.id, 'pending');
    await enqueue(tx, submitTransmissionJob, { org_id: event.org_id, document_id: view.id });
    // The finalize call answers with this same object: it shows what its transaction commits.
    view.transmission_status = 'pending';
  }
}
