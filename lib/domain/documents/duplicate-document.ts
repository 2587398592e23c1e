import type { Db } from '@/db/client';
import { draftDefaults, insertDraft } from './create-document';
import { loadDocument, loadItems, loadLiveContact, prepareItems, recordDocumentEvent, toItemInputs, withStates } from './documents';
import { loadSettings } from '@/lib/domain/invoice-settings';
import type { BillingDocument } from './schemas';
import { assertAllowed } from './transitions';

/**
 * A new draft of the same type with the same client, lines and mentions, dated today (its validity or due
 * date recomputed from the defaults). Deposit invoices and credit notes exist only through the document they
 * derive from, so they are not duplicated (409 not_duplicable).
 */
export async function duplicateDocument(db: Db, orgId: string, id: string): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const source = await loadDocument(tx, orgId, id);
    await assertAllowed(tx, orgId, source, 'duplicate');
    const contact = await loadLiveContact(tx, orgId, source.contact_id);
    const settings = await loadSettings(tx, orgId);
    const lines = await prepareItems(tx, orgId, toItemInputs(await loadItems(tx, orgId, source.id)), { copy: true });
    const row = await insertDraft(
      tx,
      orgId,
      {
        type: source.type,
        contact_id: contact.id,
        ...draftDefaults(
          source.type,
          { payment_terms: source.payment_terms, discount_terms: source.discount_terms, vat_exigibility: source.vat_exigibility },
          contact,
          settings,
        ),
        service_date: null,
        title: source.title,
        description: source.description,
        notes: source.notes,
        payment_method: source.payment_method,
        delivery_address: source.delivery_address,
        operation_nature: source.operation_nature,
        deposit_request_percentage: source.deposit_request_percentage,
        execution_timeline: source.execution_timeline,
        payment_plan_kind: source.payment_plan_kind,
        payment_plan_config: source.payment_plan_config,
      },
      lines,
    );
    return recordDocumentEvent(tx, orgId, 'invoice.created', withStates(row));
  });
}
