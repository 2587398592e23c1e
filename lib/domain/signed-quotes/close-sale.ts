import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { acceptQuote, convertToFacture, createDeposit, type DocumentRow, finalizeDocument, loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { loadSettings } from '@/lib/domain/invoice-settings';
import { Dec } from '@/lib/platform/money';
import { canTakePayments, sendForPayment } from '@/lib/domain/payments';
import { nextGenerationDate } from '@/lib/domain/recurring';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { log } from '@/lib/platform/log';

/** Where the cascade stopped on a refusal of the billing rules (the steps before it stay done). */
export interface CascadeStop {
  step: 'accept' | 'invoice' | 'finalize' | 'send';
  code: string;
  message: string;
}

export interface CascadeResult {
  quote_id: string;
  accepted: boolean;
  /** The invoices of the plan (the converted invoice, or the deposit / installment invoices), in issuing order. */
  invoice_ids: string[];
  stopped: CascadeStop | null;
}

class Stop extends Error {
  constructor(readonly stop: CascadeStop) {
    super(`${stop.step}: ${stop.code}`);
  }
}

/** Runs one step in a savepoint: a refusal (ApiError) undoes that step only and ends the cascade there. */
async function step<T>(tx: Tx, name: CascadeStop['step'], run: (sp: Tx) => Promise<T>): Promise<T> {
  try {
    return await tx.transaction(run);
  } catch (err) {
    if (err instanceof ApiError) throw new Stop({ step: name, code: err.code, message: err.message });
    throw err;
  }
}

/** The installments' shares: 100 / count rounded down to the cent of a percent, the last one taking the remainder. */
export function installmentShares(count: number): string[] {
  const share = new Dec(100).div(count).toDecimalPlaces(2, Dec.ROUND_DOWN);
  return Array.from({ length: count }, (_, i) => (i < count - 1 ? share : new Dec(100).minus(share.times(count - 1))).toFixed());
}

/** Installment k (0-based) falls due k months after the signature day, on the same day of month (clamped to the month's end). */
export function installmentDueDate(signedOn: string, k: number): string {
  let day = signedOn;
  for (let i = 0; i < k; i += 1) day = nextGenerationDate(day, 'monthly', Number(signedOn.slice(8, 10)));
  return day;
}

const live = (tx: Tx, orgId: string, quoteId: string, type: 'facture' | 'acompte') =>
  tx
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.org_id, orgId),
        eq(documents.type, type),
        eq(type === 'facture' ? documents.converted_from_id : documents.parent_devis_id, quoteId),
        ne(documents.status, 'cancelled'),
      ),
    )
    .orderBy(asc(documents.created_at), asc(documents.id));

/**
 * The plan's invoices, each created once: plan none → the invoice converted from the quote; deposit_then_balance →
 * the deposit invoice of the plan's percentage (the balance is invoiced later by converting the quote, which deducts
 * it); installments {count} → that many deposit invoices (installmentShares, due dates installmentDueDate). What
 * exists already (a replay, or a deposit staff issued before the signature) counts as done.
 */
async function planInvoices(tx: Tx, orgId: string, quote: DocumentRow, today: string): Promise<DocumentRow[]> {
  if (quote.payment_plan_kind === 'none') {
    const [invoice] = await live(tx, orgId, quote.id, 'facture');
    if (invoice) return [invoice];
    const made = await step(tx, 'invoice', (sp) => convertToFacture(sp, orgId, quote.id));
    return [await loadDocument(tx, orgId, made.id)];
  }
  const config = quote.payment_plan_config as { percentage?: string; count?: number } | null;
  const wanted =
    quote.payment_plan_kind === 'deposit_then_balance'
      ? [{ percentage: config?.percentage, dueDate: today }]
      : installmentShares(config?.count ?? 1).map((percentage, k) => ({ percentage, dueDate: installmentDueDate(today, k) }));
  const existing = await live(tx, orgId, quote.id, 'acompte');
  for (const next of wanted.slice(existing.length)) {
    await step(tx, 'invoice', (sp) => createDeposit(sp, orgId, quote.id, { percentage: next.percentage }, { dueDate: next.dueDate }));
  }
  return live(tx, orgId, quote.id, 'acompte');
}

/**
 * What a completed signature of a quote sets off (issue 18 item 6, docs/signature.md « Quote signature closes the
 * sale »): the quote becomes accepted, then the invoice settings' cascade applies — auto_convert_signed_quotes → the
 * plan's invoices as drafts, auto_finalize_signed_invoices → finalized, auto_send_signed_invoices → e-mailed (with
 * the payment link when the org takes payments). One transaction holding the quote's row lock: a replayed or
 * concurrent delivery waits, then finds each step done and does it no second time. A refusal of the billing rules
 * (a quote past its validity, a contact without e-mail…) ends the cascade at that step, keeping the earlier ones;
 * a replay retries from there. Unexpected errors roll everything back for the job's retry.
 */
export async function closeSignedQuote(db: Db, orgId: string, quoteId: string, now = new Date()): Promise<CascadeResult> {
  return db.transaction(async (tx) => {
    let quote = await loadDocument(tx, orgId, quoteId, true);
    const result: CascadeResult = { quote_id: quote.id, accepted: quote.status === 'accepted', invoice_ids: [], stopped: null };
    if (quote.type !== 'devis') return result;
    const settings = await loadSettings(tx, orgId);
    const send = settings.auto_send_signed_invoices;
    const finalize = send || settings.auto_finalize_signed_invoices;
    const convert = finalize || settings.auto_convert_signed_quotes;
    try {
      if (quote.status !== 'accepted') {
        await step(tx, 'accept', (sp) => acceptQuote(sp, orgId, quote.id));
        quote = await loadDocument(tx, orgId, quote.id);
        result.accepted = true;
      }
      if (!convert) return result;
      const invoices = await planInvoices(tx, orgId, quote, todayParis(now));
      result.invoice_ids = invoices.map((d) => d.id);
      if (!finalize) return result;
      for (const invoice of invoices) {
        if (invoice.status === 'draft') await step(tx, 'finalize', (sp) => finalizeDocument(sp, orgId, invoice.id, now));
      }
      if (!send) return result;
      const online = await canTakePayments(tx, orgId);
      for (const id of result.invoice_ids) {
        const invoice = await loadDocument(tx, orgId, id);
        if (invoice.sent_at || invoice.status !== 'finalized') continue;
        await step(tx, 'send', (sp) =>
          online ? sendForPayment(sp, orgId, id, { email: null }, now) : sendDocument(sp, orgId, id, SendDocumentInput.parse({}), now),
        );
      }
    } catch (err) {
      if (!(err instanceof Stop)) throw err;
      result.stopped = err.stop;
      log.warn({ module: 'signed-quotes', quote_id: quote.id, step: err.stop.step, code: err.stop.code }, `quote ${quote.id}: the cascade stopped at ${err.stop.step} (${err.stop.code}: ${err.stop.message})`);
    }
    return result;
  });
}
