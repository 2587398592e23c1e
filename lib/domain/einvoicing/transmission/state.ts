import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { einvoicingDocumentStates, einvoicingTransmissions, type TRANSMISSION_STATUSES } from '@/db/schema';
import { type FullDocumentRow, loadDocument, recordDocumentEvent } from '@/lib/domain/documents';

// Whether a document goes to the PA is documents' rule, applied at finalization (lib/domain/documents/transmission-rule.ts).
export { frenchBusinessBuyer, TRANSMITTED_TYPES } from '@/lib/domain/documents';

export type TransmissionStatus = (typeof TRANSMISSION_STATUSES)[number];

const stateKey = (documentId: string) => eq(einvoicingDocumentStates.document_id, documentId);

/** The document's e-invoicing summary with `changes`, as the API would show it once written (for its event). */
const changed = (doc: FullDocumentRow, changes: Partial<FullDocumentRow>, now: Date): FullDocumentRow => ({ ...doc, ...changes, updated_at: now });

/**
 * einvoicing's row for the document (einvoicing_document_states), created with what the document shows until then
 * (pending when its finalization decided it goes to the PA, else not_required) and locked for this transaction.
 */
async function lockState(tx: Tx, orgId: string, doc: FullDocumentRow) {
  await tx
    .insert(einvoicingDocumentStates)
    .values({ document_id: doc.id, org_id: orgId, transmission_status: doc.transmission_status })
    .onConflictDoNothing({ target: einvoicingDocumentStates.document_id });
  const [row] = await tx.select().from(einvoicingDocumentStates).where(stateKey(doc.id)).for('update');
  return row!;
}

/**
 * Opens the transmission of a document its finalization sent toward the PA: einvoicing's own row, `pending`, and
 * `invoice.transmission_updated` — once (a second call, or one after the submission started, does nothing). Written by
 * the subscription to `invoice.finalized` (jobs.ts), and by the submission itself if it runs first.
 */
export async function openTransmission(db: Db, orgId: string, documentId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId);
    if (!doc.transmission_required || doc.transmission_status !== 'pending') return false;
    const [opened] = await tx
      .insert(einvoicingDocumentStates)
      .values({ document_id: documentId, org_id: orgId, transmission_status: 'pending' })
      .onConflictDoNothing({ target: einvoicingDocumentStates.document_id })
      .returning({ at: einvoicingDocumentStates.updated_at });
    if (!opened) return false;
    await recordDocumentEvent(tx, orgId, 'invoice.transmission_updated', changed(doc, {}, opened.at));
    return true;
  });
}

/**
 * Moves the document's transmission summary (transmission_status, transmission_id) and, when it changed, records
 * `invoice.transmission_updated` with the document as the API shows it. In the caller's transaction.
 */
export async function setTransmissionStatus(tx: Tx, orgId: string, documentId: string, status: TransmissionStatus, transmissionId?: string | null) {
  const doc = await loadDocument(tx, orgId, documentId);
  const before = await lockState(tx, orgId, doc);
  const id = transmissionId === undefined ? before.transmission_id : transmissionId;
  if (before.transmission_status === status && before.transmission_id === id) return;
  const now = new Date();
  await tx.update(einvoicingDocumentStates).set({ transmission_status: status, transmission_id: id, updated_at: now }).where(stateKey(documentId));
  await recordDocumentEvent(tx, orgId, 'invoice.transmission_updated', changed(doc, { transmission_status: status, transmission_id: id }, now));
}

/**
 * The document's lifecycle summary (lifecycle_status, _reason, _at) moves to this status when it is the latest by the
 * time it happened (statuses can arrive out of order), with `invoice.lifecycle_updated`. In the caller's transaction.
 */
export async function setLifecycleStatus(tx: Tx, orgId: string, documentId: string, status: { token: string; reason: string | null; at: Date }) {
  const doc = await loadDocument(tx, orgId, documentId);
  const before = await lockState(tx, orgId, doc);
  if (before.lifecycle_at && before.lifecycle_at > status.at) return;
  const now = new Date();
  await tx.update(einvoicingDocumentStates).set({ lifecycle_status: status.token, lifecycle_reason: status.reason, lifecycle_at: status.at, updated_at: now }).where(stateKey(documentId));
  await recordDocumentEvent(tx, orgId, 'invoice.lifecycle_updated', changed(doc, { lifecycle_status: status.token, lifecycle_reason: status.reason, lifecycle_at: status.at }, now));
}

/** The transmission row of a document, if an attempt recorded one. */
export async function loadTransmission(db: Db, orgId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(einvoicingTransmissions)
    .where(and(eq(einvoicingTransmissions.org_id, orgId), eq(einvoicingTransmissions.document_id, documentId)));
  return row ?? null;
}
