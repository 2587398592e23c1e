import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingTransmissions, invoiceSettings } from '@/db/schema';
import { type BillingDocument, documentView, loadDocument } from '@/lib/domain/documents';
import { ApiError, conflict } from '@/lib/platform/errors';
import { enqueue } from '@/lib/platform/jobs';
import { notConfigured } from '../connector';
import { submitTransmissionJob } from './jobs';
import { frenchBusinessBuyer, setTransmissionStatus, TRANSMITTED_TYPES } from './state';

/**
 * Staff's "retry" of a failed transmission (POST /v1/invoices/{id}/transmission/retry): `failed` → `pending` with a
 * fresh submission job and fresh attempts. The transmission row keeps its tracking id, so a flow an earlier attempt
 * did create at the PA is found and kept, never sent twice. 422 einvoicing_not_applicable for a document that does
 * not travel through the PA (a quote, a draft, a buyer that is not a French business); 409 transmission_not_failed
 * while it is pending, sending or sent; 409 einvoicing_not_configured without e-invoicing or a PA configured.
 */
export async function retryTransmission(db: Db, orgId: string, documentId: string): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    if (!doc.finalized_at || !TRANSMITTED_TYPES.includes(doc.type) || !frenchBusinessBuyer(doc.client_snapshot)) {
      throw new ApiError(
        422,
        'einvoicing_not_applicable',
        'Only a finalized invoice, deposit invoice or credit note addressed to a French business (SIREN or SIRET) is transmitted through the PA.',
      );
    }
    if (doc.transmission_status !== 'failed' && doc.transmission_status !== 'not_required') {
      throw conflict('transmission_not_failed', `The transmission is ${doc.transmission_status}: only a failed one can be retried.`, 'transmission_status');
    }
    const [settings] = await tx
      .select({ enabled: invoiceSettings.einvoicing_enabled, pdp: invoiceSettings.pdp_config })
      .from(invoiceSettings)
      .where(eq(invoiceSettings.org_id, orgId));
    if (!settings?.enabled || !settings.pdp) throw notConfigured();
    const now = new Date();
    await tx
      .update(einvoicingTransmissions)
      .set({ status: 'pending', attempts: 0, last_error: null, failed_at: null, locked_until: null, updated_at: now })
      .where(and(eq(einvoicingTransmissions.org_id, orgId), eq(einvoicingTransmissions.document_id, documentId)));
    await setTransmissionStatus(tx, orgId, documentId, 'pending');
    await enqueue(tx, submitTransmissionJob, { org_id: orgId, document_id: documentId });
    return documentView(tx, orgId, await loadDocument(tx, orgId, documentId));
  });
}
