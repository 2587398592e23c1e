import type { Db } from '@/db/client';
import { asFinalizedNow, invoiceModelOf, loadDocument, loadItems } from '@/lib/domain/documents';
import { type EInvoiceError, einvoiceErrors, isEInvoice } from '@/lib/domain/facturx';

export interface EInvoiceValidation {
  document_id: string;
  /** False for a quote, which has no e-invoice. */
  einvoice: boolean;
  valid: boolean;
  errors: EInvoiceError[];
}

/**
 * GET /v1/invoices/{id}/validation: the rules its e-invoice breaks. A draft is checked as finalizing it now would
 * produce it (live seller and buyer, the next number, today's dates: lib/domain/documents asFinalizedNow) — the list
 * finalization would refuse it with, and a result finalization finds again when the number is still the next one;
 * a finalized document, its e-invoice as stored in its snapshots.
 */
export async function validateDocumentEInvoice(db: Db, orgId: string, documentId: string): Promise<EInvoiceValidation> {
  const doc = await loadDocument(db, orgId, documentId);
  if (!isEInvoice(doc.type)) return { document_id: doc.id, einvoice: false, valid: true, errors: [] };
  const row = doc.finalized_at ? doc : await asFinalizedNow(db, orgId, doc);
  const errors = await einvoiceErrors(await invoiceModelOf(db, orgId, row, await loadItems(db, orgId, doc.id)));
  return { document_id: doc.id, einvoice: true, valid: errors.length === 0, errors };
}
