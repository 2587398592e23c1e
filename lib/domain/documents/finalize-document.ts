import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents, hashChains } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { computeTotals } from '@/lib/platform/money';
import { getOrg } from '@/lib/platform/orgs';
import { todayParis, yearOf } from '@/lib/platform/dates';
import { assertValidEInvoice, isEInvoice } from '@/lib/domain/facturx';
import { type DocumentRow, loadDocument, loadItems, loadLiveContact, recordDocumentEvent, totalsColumns, withStates } from './documents';
import { canonicalPayload, contentHash, lockChain } from './hash-chain';
import { loadSettings, prefixFor } from '@/lib/domain/invoice-settings';
import { invoiceModelOf } from './einvoice';
import { assertFinalizable, type FinalizationFacts } from './finalization-rules';
import { nextNumber, recordNumber } from './numbering';
import { clientSnapshot, finalizationDates, sellerSnapshot } from './finalization-values';
import { assertAllowed } from './transitions';
import { transmissionRequired } from './transmission-rule';
import { countFinalization, inSpan } from '@/lib/platform/telemetry';
import type { BillingDocument } from './schemas';

export { clientSnapshot, sellerSnapshot } from './finalization-values';

/**
 * Finalizes a draft the caller has locked FOR UPDATE, inside the caller's transaction: checks it, then under
 * the org's chain lock takes the next number of its (type, year) series, moves a past issue date to today
 * (Europe/Paris) with the due and validity dates keeping their offsets, freezes the client and seller
 * snapshots and the totals, and seals the document into the hash chain. Returns the finalized row.
 */
export async function finalizeLocked(tx: Tx, orgId: string, doc: DocumentRow, at?: Date): Promise<DocumentRow> {
  await assertAllowed(tx, orgId, doc, 'finalize');
  const items = await loadItems(tx, orgId, doc.id);
  if (!items.some((it) => it.kind === 'product')) throw validationError('items', 'items: a document needs at least one line to be finalized');
  const totals = computeTotals(items);
  if (doc.type === 'avoir' && totals.total_ttc <= 0) throw validationError('items', 'items: a credit note must credit a positive amount');
  // A credit note corrects an invoice: it names the buyer that invoice named (even if the contact was erased since),
  // and links to the invoice's contact, so that its contact_id follows its hashed buyer as chain:verify checks.
  const credited = doc.type === 'avoir' && doc.avoir_for_id ? await loadDocument(tx, orgId, doc.avoir_for_id) : null;
  const contact = credited ? undefined : await loadLiveContact(tx, orgId, doc.contact_id);
  const buyer = credited ? credited.client_snapshot : clientSnapshot(contact!);
  const org = await getOrg(tx, orgId);
  const settings = await loadSettings(tx, orgId);

  const chain = await lockChain(tx, orgId);
  // Read the clock once the chain is ours: chain order, finalized_at and issue dates then all agree.
  const now = at ?? new Date();
  const today = todayParis(now);
  const { issue_date, due_date, validity_date } = finalizationDates(doc, today);
  if (issue_date > today && doc.type !== 'devis') {
    // A later date would put this number before documents dated earlier: the series must follow the calendar.
    throw validationError('issue_date', `issue_date: an invoice cannot be finalized before its issue date (${issue_date})`);
  }

  // The document's own rules (finalization-rules.ts), on what is about to be frozen: every refusal at once.
  assertFinalizable({ doc: { ...doc, issue_date, due_date }, items, buyer: buyer as FinalizationFacts['buyer'], seller: org, settings });

  const taken = await nextNumber(tx, orgId, doc.type, yearOf(issue_date), prefixFor(settings, doc.type));
  const key = and(eq(documents.org_id, orgId), eq(documents.id, doc.id));
  const [content] = await tx
    .update(documents)
    .set({
      number: taken.number,
      ...(credited ? { contact_id: credited.contact_id } : {}),
      issue_date,
      due_date,
      validity_date,
      client_snapshot: buyer,
      seller_snapshot: sellerSnapshot(org, settings),
      transmission_required: transmissionRequired(doc.type, buyer, settings),
      ...totalsColumns(totals),
      updated_at: now,
    })
    .where(key)
    .returning();
  // The e-invoice a PA would reject is not sealed: its Factur-X is built from the row as just numbered, dated and frozen
  // (what the PDF will embed), from what this transaction read, and validated; a throw rolls the number back with the rest.
  if (isEInvoice(doc.type)) await assertValidEInvoice(await invoiceModelOf(tx, orgId, { ...content!, finalized_at: now }, items, { org, settings, contact, credited }));
  // The hash is computed from the row as stored (read back), so verification recomputes exactly the same bytes.
  const content_hash = contentHash(chain.head_hash, canonicalPayload({ ...content!, finalized_at: now }, items));
  const chain_index = chain.length + 1;
  const [sealed] = await tx
    .update(documents)
    .set({ finalized_at: now, chain_index, prev_hash: chain.head_hash, content_hash, status: 'finalized', status_changed_at: now, updated_at: now })
    .where(key)
    .returning();
  // In this order, the only one the database accepts (migration finalize_path_only): the document is sealed at the
  // head's next place with the counter's next number, the head advances to it, then the counter to its number.
  await tx
    .update(hashChains)
    .set({ length: chain_index, head_hash: content_hash, head_document_id: doc.id, updated_at: now })
    .where(eq(hashChains.org_id, orgId));
  await recordNumber(tx, orgId, taken);
  // Counted when sealed in its transaction (every path: the API, a signed quote's cascade, a recurring run).
  countFinalization(sealed!.type);
  return sealed!;
}

export async function finalizeDocument(db: Db, orgId: string, id: string, at?: Date): Promise<BillingDocument> {
  return inSpan('finalize document', { attributes: { 'paraphe.document.id': id } }, async (span) => {
    const finalized = await db.transaction(async (tx) => {
      const doc = await loadDocument(tx, orgId, id, true);
      const sealed = await finalizeLocked(tx, orgId, doc, at);
      return recordDocumentEvent(tx, orgId, 'invoice.finalized', withStates(sealed));
    });
    span.setAttributes({ 'paraphe.document.type': finalized.type, 'paraphe.document.number': finalized.number ?? '' });
    return finalized;
  });
}
