import type { Db, Tx } from '@/db/client';
import { mergeEventObject, recordEvent } from '@/lib/platform/events';
import { log } from '@/lib/platform/log';
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
  documentView,
  loadLiveContact,
  totalsColumns,
  withStates,
} from './documents';
import { canonicalPayload, contentHash, type SealOutcome, type SealRequest, sealInChain, sealingTemplate } from './hash-chain';
import { type InvoiceSettingsRow, loadSettings, prefixFor } from '@/lib/domain/invoice-settings';
import { invoiceModelOf } from './einvoice';
import { assertFinalizable, type FinalizationFacts } from './finalization-rules';
import { formatNumber, NUMBER_PATTERN, peekNumber } from './numbering';
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

/** What a finalization answers its caller: the document as the API and its event show it, what the chain lock cost. */
interface Sealed {
  view: BillingDocument;
  /** How long the sealing statements waited for the chain lock, and the sealing one ran holding it (the database's clock). */
  lockWaitMs: number;
  lockStatementMs: number;
}

/**
 * Finalizes a draft the caller has locked FOR UPDATE, inside the caller's transaction, and records its
 * `invoice.finalized`: checks it, then under the org's chain lock takes the next number of its (type, year) series,
 * moves a past issue date to today (Europe/Paris) with the due and validity dates keeping their offsets, freezes the
 * client and seller snapshots and the totals, and seals the document into the hash chain. Returns the API's view.
 */
export async function finalizeLocked(tx: Tx, orgId: string, doc: DocumentRow, at?: Date): Promise<BillingDocument> {
  return (await seal(tx, orgId, doc, at)).view;
}

/** The draft with what the plan freezes, as the sealing statement will write it. */
const frozen = (doc: DocumentRow, plan: Plan) => ({ ...doc, ...plan.values }) as DocumentRow;

/** The row as the sealing statement leaves it, from the draft as written and what the statement answers. */
function sealedRow(draft: DocumentRow, s: SealOutcome): DocumentRow {
  return {
    ...draft,
    number: s.number,
    finalized_at: s.at,
    chain_index: s.chain_index,
    prev_hash: s.prev_hash,
    content_hash: s.content_hash,
    status: 'finalized',
    status_changed_at: s.at,
    updated_at: s.at,
  } as DocumentRow;
}

/**
 * Everything that does not depend on the chain's head or the series' counter — reads, checks, snapshots, totals, the
 * e-invoice validation, the event with its jobs and deliveries — happens before the chain lock; the lock is then one
 * statement (sealInChain) and the commit. The event is written with the values the lock decides still provisional
 * (the number the series would give now, the time before the lock): the statement replaces them in the same
 * transaction, so no one ever reads them. The slow path — an e-invoice that failed before the lock (validated again
 * with the real number, to list its errors exactly), or midnight in Paris passed while waiting — takes the lock first,
 * then plans, validates and seals with the time and number it read.
 */
async function seal(tx: Tx, orgId: string, doc: DocumentRow, at?: Date): Promise<Sealed> {
  const reads = await readDraft(tx, orgId, doc);
  const before = at ?? new Date();
  let plan = planOn(doc, reads, todayParis(before));
  const validated = await validatedBeforeLock(tx, orgId, doc, reads, plan, before);
  let draft = frozen(doc, plan);
  const provisional = sealedRow(draft, { outcome: 'sealed', at: before, number: formatNumber(plan.prefix, plan.year, 1), sequence: 1, chain_index: 1, prev_hash: null, content_hash: '0'.repeat(64), waitedMs: 0, heldMs: null });
  const event = await recordEvent(tx, orgId, 'invoice.finalized', await documentView(tx, orgId, withStates(provisional), { items: reads.items }));

  const request = (p: Plan, d: DocumentRow, time: Date | null, template: boolean): SealRequest => ({
    orgId,
    documentId: doc.id,
    type: doc.type,
    year: p.year,
    prefix: p.prefix,
    today: p.today,
    at: time,
    template: template ? sealingTemplate(d, reads.items) : null,
    values: p.values,
    eventId: event.id,
  });
  let outcome = validated ? await sealInChain(tx, request(plan, draft, at ?? null, true)) : null;
  let lockWaitMs = outcome?.waitedMs ?? 0;
  if (outcome?.outcome !== 'sealed') {
    let locked = await sealInChain(tx, request(plan, draft, outcome?.at ?? at ?? null, false));
    lockWaitMs += locked.waitedMs;
    const today = todayParis(locked.at);
    if (today !== plan.today) {
      plan = planOn(doc, reads, today);
      draft = frozen(doc, plan);
      locked = await sealInChain(tx, request(plan, draft, locked.at, false));
    }
    if (isEInvoice(doc.type)) {
      const row = { ...draft, number: locked.number, finalized_at: locked.at } as DocumentRow;
      await assertValidEInvoice(await invoiceModelOf(tx, orgId, row, reads.items, known(reads)));
    }
    outcome = await sealInChain(tx, request(plan, draft, locked.at, true));
  }
  if (outcome.outcome !== 'sealed') throw new Error(`document ${doc.id}: not sealed (${outcome.outcome}) at the time its lock was taken`);
  const sealed = sealedRow(draft, outcome);
  // The hash must be the one verification recomputes from the row: the database's sha256 over the template is checked
  // against this process's over the canonical payload of the sealed row (and chain:verify reads the stored one).
  if (contentHash(sealed.prev_hash, canonicalPayload(sealed, reads.items)) !== sealed.content_hash) throw new Error(`document ${doc.id}: the stored row does not hash as sealed`);
  const view = await documentView(tx, orgId, withStates(sealed), { items: reads.items });
  // Replanned (midnight passed): the event's dates are the new plan's too.
  if (plan.today !== todayParis(before)) await mergeEventObject(tx, event.id, 'invoice.finalized', view as unknown as Record<string, unknown>);
  // Counted when sealed in its transaction (every path: the API, a signed quote's cascade, a recurring run).
  countFinalization(sealed.type);
  return { view, lockWaitMs, lockStatementMs: outcome.heldMs ?? 0 };
}

export async function finalizeDocument(db: Db, orgId: string, id: string, at?: Date): Promise<BillingDocument> {
  return inSpan('finalize document', { attributes: { 'paraphe.document.id': id } }, async (span) => {
    const { view, lockWaitMs, lockStatementMs } = await db.transaction(async (tx) => seal(tx, orgId, await loadDocument(tx, orgId, id, true), at));
    // How long it queued behind the org's other finalizations (what the chain lock costs a finalization), and how long
    // its sealing statement ran holding the lock (the commit follows).
    const ms = (v: number) => Math.round(v * 100) / 100;
    const lock = { chain_lock_wait_ms: ms(lockWaitMs), chain_lock_statement_ms: ms(lockStatementMs) };
    span.setAttributes({ 'paraphe.document.type': view.type, 'paraphe.document.number': view.number ?? '', 'paraphe.chain_lock_wait_ms': lock.chain_lock_wait_ms, 'paraphe.chain_lock_statement_ms': lock.chain_lock_statement_ms });
    log.info({ document_id: view.id, type: view.type, number: view.number, ...lock }, 'document finalized');
    return view;
  });
}
