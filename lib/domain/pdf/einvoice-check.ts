import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { numberCounters } from '@/db/schema';
import { addDays, daysBetween, todayParis, yearOf } from '@/lib/platform/dates';
import { type DocumentRow, formatNumber, type ItemRow, loadDocument, loadItems, type SealCheck } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { type InvoiceSettingsRow, loadSettings, prefixFor } from '@/lib/domain/invoice-settings';
import { buildFacturX, isEInvoice } from './facturx/cii';
import { type EInvoiceError, validateEInvoice } from './facturx/einvoice-validation';
import { buildRenderModel, type KnownRows } from './model';

export function einvoiceInvalid(errors: EInvoiceError[]): ApiError {
  const rules = [...new Set(errors.map((e) => e.rule))];
  return new ApiError(
    422,
    'einvoice_invalid',
    `The e-invoice of this document breaks ${rules.length === 1 ? 'a rule' : `${rules.length} rules`} a PA would refuse it for: ${rules.join(', ')}.`,
    null,
    {},
    { errors },
  );
}

async function errorsOf(db: Db, orgId: string, doc: DocumentRow, items: ItemRow[]): Promise<EInvoiceError[]> {
  return validateEInvoice(await ciiOf(db, orgId, doc, items));
}

const ciiOf = async (db: Db, orgId: string, doc: DocumentRow, items: ItemRow[], known?: KnownRows) => buildFacturX(await buildRenderModel(db, orgId, doc, items, known));

/**
 * Whether validating before the chain lock pays, per org, in this process. When an org's finalizations run at once (a
 * monthly run's deliveries over several workers) another one mostly takes the predicted number first, and the CII is
 * validated twice. So each prediction is scored when the sealed CII is built; while fewer than half of an org's last
 * PREDICTIONS_KEPT were right, its finalizations validate under the lock only (once), and one in PROBE_EVERY still
 * predicts, so that the score follows the load. A single finalization at a time is always predicted right.
 */
const PREDICTIONS_KEPT = 20;
const PROBE_EVERY = 10;
const MIN_SCORED = 5;
const predictionKey = Symbol.for('paraphe.einvoice-predictions');
interface Predictions {
  /** The CII predicted for a draft, until its seal check scores it. */
  pending: Map<string, string>;
  /** Per org: the last predictions' outcomes, and finalizations since the last one predicted. */
  orgs: Map<string, { right: boolean[]; skipped: number }>;
}
function predictions(): Predictions {
  const g = globalThis as typeof globalThis & { [predictionKey]?: Predictions };
  g[predictionKey] ??= { pending: new Map(), orgs: new Map() };
  return g[predictionKey];
}

function worthPredicting(orgId: string): boolean {
  const score = predictions().orgs.get(orgId);
  if (!score || score.right.length < MIN_SCORED || score.right.filter(Boolean).length * 2 >= score.right.length) return true;
  score.skipped = (score.skipped + 1) % PROBE_EVERY;
  return score.skipped === 0;
}

function scorePrediction(orgId: string, documentId: string, sealedCii: string) {
  const p = predictions();
  const predicted = p.pending.get(documentId);
  if (predicted === undefined) return;
  p.pending.delete(documentId);
  const score = p.orgs.get(orgId) ?? { right: [], skipped: 0 };
  score.right.push(predicted === sealedCii);
  if (score.right.length > PREDICTIONS_KEPT) score.right.shift();
  // Most recently scored last; the oldest org dropped beyond a bound (a process serving many orgs).
  p.orgs.delete(orgId);
  p.orgs.set(orgId, score);
  if (p.orgs.size > 10_000) p.orgs.delete(p.orgs.keys().next().value!);
}

/**
 * Sealing refuses a document whose Factur-X a PA would refuse (lib/domain/documents/seal-checks.ts): the CII is built from
 * the row as finalization stored it (number, dates, snapshots), so what is validated is what the PDF will carry.
 * Before the chain lock, the draft's CII as it will most likely be sealed (the series' next number, today's dates)
 * is validated; validateEInvoice keeps its result by the XML's hash, so the check under the lock costs the building of
 * the CII only, unless another finalization took that number in between (then it validates again; see above for
 * when the prediction is not even tried).
 */
export const validateBeforeSealing: SealCheck = {
  async prepare(tx, orgId, draft, read) {
    if (!isEInvoice(draft.type) || !worthPredicting(orgId)) return;
    const cii = await ciiOf(tx, orgId, await asFinalizedToday(tx, orgId, draft, read.settings), read.items, read);
    const { pending } = predictions();
    pending.set(draft.id, cii);
    // A finalization refused before its seal check leaves its prediction: the oldest go first.
    if (pending.size > 1_000) pending.delete(pending.keys().next().value!);
    await validateEInvoice(cii);
  },
  async check(tx, orgId, sealed, read) {
    if (!isEInvoice(sealed.type)) return;
    const cii = await ciiOf(tx, orgId, sealed, read.items, read);
    scorePrediction(orgId, sealed.id, cii);
    const errors = await validateEInvoice(cii);
    if (errors.length > 0) throw einvoiceInvalid(errors);
  },
};

export interface EInvoiceValidation {
  document_id: string;
  /** False for a quote, which has no e-invoice. */
  einvoice: boolean;
  valid: boolean;
  errors: EInvoiceError[];
}

/**
 * A draft as finalizing it today would number and date it, without taking the number: the series' next one, a past
 * issue date moved to today with the due and validity dates keeping their offsets (as finalizeLocked does).
 */
async function asFinalizedToday(db: Db, orgId: string, draft: DocumentRow, settings?: InvoiceSettingsRow): Promise<DocumentRow> {
  const today = todayParis(new Date());
  let { issue_date, due_date, validity_date } = draft;
  if (issue_date < today) {
    const shift = daysBetween(issue_date, today);
    issue_date = today;
    due_date = due_date && addDays(due_date, shift);
    validity_date = validity_date && addDays(validity_date, shift);
  }
  const year = yearOf(issue_date);
  const [counter] = await db
    .select({ last: numberCounters.last_number })
    .from(numberCounters)
    .where(and(eq(numberCounters.org_id, orgId), eq(numberCounters.type, draft.type), eq(numberCounters.year, year)));
  const number = formatNumber(prefixFor(settings ?? (await loadSettings(db, orgId)), draft.type), year, (counter?.last ?? 0) + 1);
  return { ...draft, number, issue_date, due_date, validity_date };
}

/**
 * GET /v1/invoices/{id}/validation: the rules its e-invoice breaks. A draft is checked as finalizing it now would
 * produce it (live seller and buyer, the next number, today's dates) — the list finalization would refuse it with;
 * a finalized document, its e-invoice as stored in its snapshots.
 */
export async function validateDocumentEInvoice(db: Db, orgId: string, documentId: string): Promise<EInvoiceValidation> {
  const doc = await loadDocument(db, orgId, documentId);
  if (!isEInvoice(doc.type)) return { document_id: doc.id, einvoice: false, valid: true, errors: [] };
  const row = doc.finalized_at ? doc : await asFinalizedToday(db, orgId, doc);
  const errors = await errorsOf(db, orgId, row, await loadItems(db, orgId, doc.id));
  return { document_id: doc.id, einvoice: true, valid: errors.length === 0, errors };
}
