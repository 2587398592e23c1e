import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents, einvoicingTransmissions, invoiceSettings, type TRANSMISSION_STATUSES } from '@/db/schema';
import { type DocumentRow, recordDocumentEvent } from '@/lib/domain/documents';

export type TransmissionStatus = (typeof TRANSMISSION_STATUSES)[number];

/** The documents that travel through the PA (DESIGN §11): invoices, deposit invoices and credit notes — never quotes. */
export const TRANSMITTED_TYPES: readonly DocumentRow['type'][] = ['facture', 'acompte', 'avoir'];

interface BuyerSnapshot {
  type?: string | null;
  siren?: string | null;
  siret?: string | null;
  country?: string | null;
}

/** The buyer's SIREN (and SIRET) when it is a French business: not a private person, a SIREN or SIRET, France (or no country). */
export function frenchBusinessBuyer(snapshot: unknown): { siren: string; siret: string | null } | null {
  const buyer = (snapshot ?? {}) as BuyerSnapshot;
  if (buyer.type === 'particulier') return null;
  const siret = buyer.siret?.replace(/\s/g, '') || null;
  const siren = buyer.siren?.replace(/\s/g, '') || siret?.slice(0, 9) || null;
  if (!siren || !/^\d{9}$/.test(siren)) return null;
  if (buyer.country && buyer.country.toUpperCase() !== 'FR') return null;
  return { siren, siret: siret && /^\d{14}$/.test(siret) ? siret : null };
}

/** Whether a finalized document goes to the PA: the org opted in, a transmitted type, a French business buyer. */
export async function transmissionRequired(tx: Db, orgId: string, doc: Pick<DocumentRow, 'type' | 'client_snapshot'>): Promise<boolean> {
  if (!TRANSMITTED_TYPES.includes(doc.type) || !frenchBusinessBuyer(doc.client_snapshot)) return false;
  const [settings] = await tx.select({ enabled: invoiceSettings.einvoicing_enabled }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  return settings?.enabled === true;
}

/**
 * Moves the document's transmission summary (transmission_status, transmission_id) and, when the status changed,
 * records `invoice.transmission_updated` with the document as the API shows it. In the caller's transaction.
 */
export async function setTransmissionStatus(tx: Tx, orgId: string, documentId: string, status: TransmissionStatus, transmissionId?: string | null) {
  const [before] = await tx
    .select({ status: documents.transmission_status, id: documents.transmission_id })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), eq(documents.id, documentId)))
    .for('update');
  if (!before) return;
  const id = transmissionId === undefined ? before.id : transmissionId;
  if (before.status === status && before.id === id) return;
  const [row] = await tx
    .update(documents)
    .set({ transmission_status: status, transmission_id: id, updated_at: new Date() })
    .where(and(eq(documents.org_id, orgId), eq(documents.id, documentId)))
    .returning();
  await recordDocumentEvent(tx, orgId, 'invoice.transmission_updated', row!);
}

/** The transmission row of a document, if an attempt recorded one. */
export async function loadTransmission(db: Db, orgId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(einvoicingTransmissions)
    .where(and(eq(einvoicingTransmissions.org_id, orgId), eq(einvoicingTransmissions.document_id, documentId)));
  return row ?? null;
}
