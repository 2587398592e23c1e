import type { Tx } from '@/db/client';
import { installedModules } from '@/lib/manifest';
import type { DocumentRow, ItemRow } from './documents';

/**
 * A check another module runs on a document about to be sealed, declared in its manifest (`sealChecks`). It receives
 * the row as finalization stored it in the transaction — number, dates, frozen snapshots and totals, `finalized_at` the
 * sealing time — and its lines; it throws an ApiError to refuse, which rolls the whole finalization back (no number
 * consumed, nothing sealed). lib/pdf validates the e-invoice this way: it imports documents, so documents cannot
 * import it.
 */
export type SealCheck = (tx: Tx, orgId: string, sealed: DocumentRow, items: ItemRow[]) => Promise<void>;

export async function runSealChecks(tx: Tx, orgId: string, sealed: DocumentRow, items: ItemRow[]): Promise<void> {
  for (const m of installedModules()) {
    for (const check of m.sealChecks ?? []) await check(tx, orgId, sealed, items);
  }
}
