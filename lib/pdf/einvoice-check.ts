import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { numberCounters } from '@/db/schema';
import { addDays, daysBetween, todayParis, yearOf } from '@/lib/dates';
import { type DocumentRow, formatNumber, type ItemRow, loadDocument, loadItems, type SealCheck } from '@/lib/documents';
import { ApiError } from '@/lib/errors';
import { loadSettings, prefixFor } from '@/lib/invoice-settings';
import { buildFacturX, isEInvoice } from './facturx/cii';
import { type EInvoiceError, validateEInvoice } from './facturx/einvoice-validation';
import { buildRenderModel } from './model';

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
  return validateEInvoice(buildFacturX(await buildRenderModel(db, orgId, doc, items)));
}

/**
 * Sealing refuses a document whose Factur-X a PA would refuse (lib/documents/seal-checks.ts): the CII is built from
 * the row as finalization stored it (number, dates, snapshots), so what is validated is what the PDF will carry.
 * Before the chain lock, the draft's CII as it will most likely be sealed (the series' next number, today's dates)
 * is validated; validateEInvoice keeps its result by the XML's hash, so the check under the lock costs the building of
 * the CII only, unless another finalization took that number in between (then it validates again).
 */
export const validateBeforeSealing: SealCheck = {
  async prepare(tx, orgId, draft) {
    if (!isEInvoice(draft.type)) return;
    await errorsOf(tx, orgId, await asFinalizedToday(tx, orgId, draft), await loadItems(tx, orgId, draft.id));
  },
  async check(tx, orgId, sealed, items) {
    if (!isEInvoice(sealed.type)) return;
    const errors = await errorsOf(tx, orgId, sealed, items);
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
async function asFinalizedToday(db: Db, orgId: string, draft: DocumentRow): Promise<DocumentRow> {
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
  const number = formatNumber(prefixFor(await loadSettings(db, orgId), draft.type), year, (counter?.last ?? 0) + 1);
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
