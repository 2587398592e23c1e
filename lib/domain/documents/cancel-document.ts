import type { Db } from '@/db/client';
import { theDocument } from '@/lib/platform/i18n';
import { insertCreditNote } from './create-credit-note';
import { loadDocument, recordDocumentEvent, withStates } from './documents';
import { finalizeLocked } from './finalize-document';
import type { BillingDocument } from './schemas';
import { assertAllowed, creditNoteOf, setStatus } from './transitions';

/**
 * Cancels a non-terminal document. A numbered invoice or deposit invoice is never erased: its cancellation
 * issues and finalizes, in the same transaction, the full credit note that offsets it (a draft credit note
 * waiting on it is cancelled and replaced; a finalized one already exists → 409 credit_note_exists).
 */
export async function cancelDocument(db: Db, orgId: string, id: string): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const row = await loadDocument(tx, orgId, id, true);
    await assertAllowed(tx, orgId, row, 'cancel');

    if (row.finalized_at && (row.type === 'facture' || row.type === 'acompte')) {
      const draft = await creditNoteOf(tx, orgId, row.id);
      if (draft && !draft.finalized_at) {
        await recordDocumentEvent(tx, orgId, 'invoice.cancelled', await setStatus(tx, orgId, withStates(draft), 'cancelled'));
      }
      const what = theDocument(row.type);
      const creditNote = await insertCreditNote(tx, orgId, row, {
        credit_reason_code: 'cancellation',
        credit_reason_text: `Annulation de ${what} ${row.number}`,
      });
      await recordDocumentEvent(tx, orgId, 'invoice.created', withStates(creditNote));
      // Its invoice.finalized is recorded by the finalization itself.
      await finalizeLocked(tx, orgId, creditNote);
    }
    return recordDocumentEvent(tx, orgId, 'invoice.cancelled', await setStatus(tx, orgId, row, 'cancelled'));
  });
}
