import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents, hashChains } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { computeTotals } from '@/lib/platform/money';
import { getOrg, type Org } from '@/lib/platform/orgs';
import { todayParis, yearOf } from '@/lib/platform/dates';
import { assertValidEInvoice, einvoiceErrors, isEInvoice } from '@/lib/domain/facturx';
import {
  type ContactRow,
  type DocumentRow,
  type ItemRow,
  loadDocument,
  loadItems,
  loadLiveContact,
  recordDocumentEvent,
  totalsColumns,
  withStates,
} from './documents';
import { canonicalPayload, contentHash, lockChainAndSeries } from './hash-chain';
import { type InvoiceSettingsRow, loadSettings, prefixFor } from '@/lib/domain/invoice-settings';
import { invoiceModelOf } from './einvoice';
import { assertFinalizable, type FinalizationFacts } from './finalization-rules';
import { NUMBER_PATTERN, nextNumber, numberAfter, peekNumber, recordNumber } from './numbering';
import { clientSnapshot, finalizationDates, sellerSnapshot } from './finalization-values';
import { assertAllowed } from './transitions';
import { transmissionRequired } from './transmission-rule';
import { countFinalization, inSpan } from '@/lib/platform/telemetry';
import type { BillingDocument } from './schemas';

export { clientSnapshot, sellerSnapshot } from './finalization-values';

/** What finalization reads of a draft and around it, once, before the chain lock. */
interface Reads {
  items: ItemRow[];
  org: Org;
  settings: InvoiceSettingsRow;
  contact: ContactRow | undefined;
  credited: DocumentRow | null;
  buyer: unknown;
  totals: ReturnType<typeof computeTotals>;
}

async function readDraft(tx: Tx, orgId: string, doc: DocumentRow): Promise<Reads> {
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
  return { items, totals, credited, contact, buyer, org: await getOrg(tx, orgId), settings: await loadSettings(tx, orgId) };
}

/**
 * What finalizing the draft on `today` (Europe/Paris) freezes, every refusal of the document's own rules checked: it
 * depends on the date alone, not on the chain nor the counter, so it is decided before the chain lock (and again under
 * it in the rare case the date changed meanwhile).
 */
function planOn(doc: DocumentRow, r: Reads, today: string) {
  const { issue_date, due_date, validity_date } = finalizationDates(doc, today);
  if (issue_date > today && doc.type !== 'devis') {
    // A later date would put this number before documents dated earlier: the series must follow the calendar.
    throw validationError('issue_date', `issue_date: an invoice cannot be finalized before its issue date (${issue_date})`);
  }
  // The document's own rules (finalization-rules.ts), on what is about to be frozen: every refusal at once.
  assertFinalizable({ doc: { ...doc, issue_date, due_date }, items: r.items, buyer: r.buyer as FinalizationFacts['buyer'], seller: r.org, settings: r.settings });
  return {
    today,
    year: yearOf(issue_date),
    prefix: prefixFor(r.settings, doc.type),
    values: {
      ...(r.credited ? { contact_id: r.credited.contact_id } : {}),
      issue_date,
      due_date,
      validity_date,
      client_snapshot: r.buyer,
      seller_snapshot: sellerSnapshot(r.org, r.settings),
      transmission_required: transmissionRequired(doc.type, r.buyer, r.settings),
      ...totalsColumns(r.totals),
    },
  };
}
type Plan = ReturnType<typeof planOn>;

/**
 * The e-invoice a PA would reject is not sealed. Its Factur-X is built from the row as finalization numbers, dates and
 * freezes it (what the PDF will embed); the number is the one thing only the chain lock decides, and the CII holds it
 * once, as BT-1 (ExchangedDocument/ram:ID, an xs:token), which the XSD and the three schematrons check for being
 * non-empty (BR-02), at most 35 characters (BR-FR-01) and of A-Z a-z 0-9 + - _ / (BR-FR-02) — NUMBER_PATTERN, which
 * every number taken passes — and BR-FR-MV-11 compares with line references (AFL) our CII never writes. So the CII
 * with the series' next number as read now (peekNumber) is validated before the lock (the slow part, hundreds of
 * milliseconds of the JVM's and the XSD worker's time on a loaded machine): when it passes, the CII with the number
 * taken under the lock passes too. Returns whether it passed; a CII that fails is validated again under the lock
 * with the real number, which lists the errors exactly as before.
 */
async function validatedBeforeLock(tx: Tx, orgId: string, doc: DocumentRow, r: Reads, plan: Plan, at: Date): Promise<boolean> {
  if (!isEInvoice(doc.type)) return true;
  const number = await peekNumber(tx, orgId, doc.type, plan.year, plan.prefix);
  if (!NUMBER_PATTERN.test(number)) return false;
  const row = { ...doc, ...plan.values, number, finalized_at: at } as DocumentRow;
  const errors = await einvoiceErrors(await invoiceModelOf(tx, orgId, row, r.items, known(r)));
  return errors.length === 0;
}

const known = (r: Reads) => ({ org: r.org, settings: r.settings, contact: r.contact, credited: r.credited });

/**
 * Finalizes a draft the caller has locked FOR UPDATE, inside the caller's transaction: checks it, then under
 * the org's chain lock takes the next number of its (type, year) series, moves a past issue date to today
 * (Europe/Paris) with the due and validity dates keeping their offsets, freezes the client and seller
 * snapshots and the totals, and seals the document into the hash chain. Returns the finalized row.
 */
export async function finalizeLocked(tx: Tx, orgId: string, doc: DocumentRow, at?: Date): Promise<DocumentRow> {
  return (await seal(tx, orgId, doc, at)).sealed;
}

/**
 * finalizeLocked, returning the lines it read too. Everything that does not depend on the chain's head or the series'
 * counter — reads, checks, snapshots, totals, the e-invoice validation — happens before the chain lock, so that the
 * org's other finalizations wait only for SQL: lock, seal, head, counter (then the caller's event and commit).
 */
async function seal(tx: Tx, orgId: string, doc: DocumentRow, at?: Date): Promise<{ sealed: DocumentRow; items: ItemRow[] }> {
  const reads = await readDraft(tx, orgId, doc);
  const before = at ?? new Date();
  let plan = planOn(doc, reads, todayParis(before));
  let validated = await validatedBeforeLock(tx, orgId, doc, reads, plan, before);

  const lockedYear = plan.year;
  const locked = await lockChainAndSeries(tx, orgId, doc.type, lockedYear);
  // Read the clock once the chain is ours: chain order, finalized_at and issue dates then all agree.
  const now = at ?? new Date();
  const today = todayParis(now);
  if (today !== plan.today) {
    // Midnight in Paris passed while waiting: the dates, the refusals and maybe the series follow the new day.
    plan = planOn(doc, reads, today);
    validated = false;
  }
  const taken =
    plan.year === lockedYear
      ? numberAfter(locked.lastNumber, doc.type, plan.year, plan.prefix)
      : await nextNumber(tx, orgId, doc.type, plan.year, plan.prefix);
  const row = { ...doc, ...plan.values, number: taken.number, finalized_at: now } as DocumentRow;
  if (!validated) await assertValidEInvoice(await invoiceModelOf(tx, orgId, row, reads.items, known(reads)));

  const chain = locked.chain;
  const content_hash = contentHash(chain.head_hash, canonicalPayload(row, reads.items));
  const chain_index = chain.length + 1;
  // One update numbers, dates, freezes and seals the draft (the database accepts it at the head's next place with the
  // counter's next number); the head advances to it, then the counter to its number — the only order accepted.
  const [sealed] = await tx
    .update(documents)
    .set({
      number: taken.number,
      ...plan.values,
      finalized_at: now,
      chain_index,
      prev_hash: chain.head_hash,
      content_hash,
      status: 'finalized',
      status_changed_at: now,
      updated_at: now,
    })
    .where(and(eq(documents.org_id, orgId), eq(documents.id, doc.id)))
    .returning();
  // The hash must be the one verification recomputes from the row as stored: checked on the row read back.
  if (contentHash(chain.head_hash, canonicalPayload(sealed!, reads.items)) !== content_hash) throw new Error(`document ${doc.id}: the stored row does not hash as sealed`);
  await tx
    .update(hashChains)
    .set({ length: chain_index, head_hash: content_hash, head_document_id: doc.id, updated_at: now })
    .where(eq(hashChains.org_id, orgId));
  await recordNumber(tx, orgId, taken);
  // Counted when sealed in its transaction (every path: the API, a signed quote's cascade, a recurring run).
  countFinalization(sealed!.type);
  return { sealed: sealed!, items: reads.items };
}

export async function finalizeDocument(db: Db, orgId: string, id: string, at?: Date): Promise<BillingDocument> {
  return inSpan('finalize document', { attributes: { 'paraphe.document.id': id } }, async (span) => {
    const finalized = await db.transaction(async (tx) => {
      const doc = await loadDocument(tx, orgId, id, true);
      const { sealed, items } = await seal(tx, orgId, doc, at);
      // The lines just hashed: the event's document is not read again under the chain lock.
      return recordDocumentEvent(tx, orgId, 'invoice.finalized', withStates(sealed), { items });
    });
    span.setAttributes({ 'paraphe.document.type': finalized.type, 'paraphe.document.number': finalized.number ?? '' });
    return finalized;
  });
}
