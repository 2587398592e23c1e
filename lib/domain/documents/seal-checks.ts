import type { Tx } from '@/db/client';
import type { InvoiceSettingsRow } from '@/lib/domain/invoice-settings';
import { installedModules } from '@/lib/platform/manifest';
import type { Org } from '@/lib/platform/orgs';
import type { ContactRow, DocumentRow, ItemRow } from './documents';

/**
 * A check another module runs on a document about to be sealed, declared in its manifest (`sealChecks`). lib/domain/pdf
 * validates the e-invoice this way: it imports documents, so documents cannot import it.
 *
 * - `check` receives the row as finalization stored it in the transaction — number, dates, frozen snapshots and
 *   totals, `finalized_at` the sealing time — and what finalization read (its lines among them), under the org's
 *   chain lock; it throws an ApiError to refuse, which rolls the whole finalization back (no number consumed,
 *   nothing sealed).
 * - `prepare`, if any, runs first, on the draft, before the chain lock is taken: it may do the slow part of the check
 *   on what it predicts the sealed row will be, so that `check` finds it done and other finalizations of the org do
 *   not wait behind it. It never refuses: `check` decides.
 */
export interface SealCheck {
  prepare?: (tx: Tx, orgId: string, draft: DocumentRow, read: SealReads) => Promise<void>;
  check: (tx: Tx, orgId: string, sealed: DocumentRow, read: SealReads) => Promise<void>;
}

/**
 * What finalization has read in its transaction, handed to the checks so that they do not read it again (a monthly
 * run finalizes thousands of invoices: each statement saved counts). `contact` is the draft's live contact, absent
 * when finalization did not read it (a credit note names the buyer of the invoice it credits).
 */
export interface SealReads {
  items: ItemRow[];
  org: Org;
  settings: InvoiceSettingsRow;
  contact?: ContactRow;
}

const checks = () => installedModules().flatMap((m) => m.sealChecks ?? []);

export async function prepareSealChecks(tx: Tx, orgId: string, draft: DocumentRow, read: SealReads): Promise<void> {
  for (const c of checks()) await c.prepare?.(tx, orgId, draft, read);
}

export async function runSealChecks(tx: Tx, orgId: string, sealed: DocumentRow, read: SealReads): Promise<void> {
  for (const c of checks()) await c.check(tx, orgId, sealed, read);
}
