import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents } from '@/db/schema';
import { checkDraft } from './create-document';
import { type DocumentInsert, loadDocument, loadLiveContact, prepareItems, recordDocumentEvent, totalsColumns, writeItems, withStates } from './documents';
import type { BillingDocument, DocumentPatch } from './schemas';
import { assertAllowed } from './transitions';

/** PATCH of a draft: omitted keys unchanged, null clears, items replace the whole set. */
export async function updateDocument(db: Db, orgId: string, id: string, patch: DocumentPatch): Promise<BillingDocument> {
  return db.transaction(async (tx: Tx) => {
    const row = await loadDocument(tx, orgId, id, true);
    await assertAllowed(tx, orgId, row, 'edit');

    const changes: Partial<DocumentInsert> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || key === 'items') continue;
      (changes as Record<string, unknown>)[key] = value;
    }
    if ('payment_plan_kind' in changes) {
      changes.payment_plan_kind ??= 'none';
      // Dropping the plan drops its config; another kind must come with (or already have) a matching one.
      if (changes.payment_plan_kind === 'none' && !('payment_plan_config' in changes)) changes.payment_plan_config = null;
    }
    if (changes.contact_id && changes.contact_id !== row.contact_id) await loadLiveContact(tx, orgId, changes.contact_id);

    const merged = { ...row, ...changes };
    changes.payment_plan_config = checkDraft(merged);

    if (patch.items !== undefined) {
      const lines = await prepareItems(tx, orgId, patch.items);
      await writeItems(tx, orgId, id, lines);
      Object.assign(changes, totalsColumns(lines.totals));
    }
    const [updated] = await tx
      .update(documents)
      .set({ ...changes, updated_at: new Date() })
      .where(and(eq(documents.org_id, orgId), eq(documents.id, id)))
      .returning();
    return recordDocumentEvent(tx, orgId, 'invoice.updated', withStates(updated!));
  });
}

/** Deletes a draft (never numbered, so nothing of the series is lost). */
export async function deleteDocument(db: Db, orgId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await loadDocument(tx, orgId, id, true);
    await assertAllowed(tx, orgId, row, 'remove');
    await tx.delete(documents).where(and(eq(documents.org_id, orgId), eq(documents.id, id)));
  });
}
