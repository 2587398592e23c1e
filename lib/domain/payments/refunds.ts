import { and, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents, onlineRefunds } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { balanceSql, type Conn, type DocumentRow, type FullDocumentRow, loadDocument, remainingDue } from '@/lib/domain/documents';
import { conflict, validationError } from '@/lib/platform/errors';
import { applyPayment, type PaymentBalance, type PaymentEntry, totalPaid } from './payments';
import type { RefundInput } from './schemas';

/*
 * Refunds: money given back to a client, stored as a payment with a NEGATIVE amount (event payment.refunded).
 * What the client is owed is max(0, −balance) (lib/domain/documents/balance.ts). After a finalized credit note the refund
 * is recorded on the credit note — the avoir is what is paid back, and its status does not move — because an
 * invoice is paid while total_paid ≥ total_ttc: a refund on it would turn a paid invoice back to sent. Without a
 * credit note (an overpayment) it goes on the invoice itself: remaining_due moves toward 0 and it stays paid.
 */

export const billed = (doc: DocumentRow) => (doc.type === 'facture' || doc.type === 'acompte') && doc.finalized_at !== null;

/** The balance of an invoice (balanceSql): negative when the client is owed money. */
async function balanceOf(conn: Conn, orgId: string, invoiceId: string): Promise<number> {
  const [row] = await conn
    .select({ balance: sql<string>`${balanceSql(sql`${documents}`)}` })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), eq(documents.id, invoiceId)));
  return Number(row?.balance ?? 0);
}

/** What the client is owed on an issued invoice or deposit invoice, in cents (0 when nothing). */
export async function refundableAmount(conn: Conn, orgId: string, invoiceId: string): Promise<number> {
  return Math.max(0, -(await balanceOf(conn, orgId, invoiceId)));
}

/** Cents asked from the provider for this invoice and not settled yet (online-refunds.ts): held back from a new refund. */
export async function pendingRefundCents(conn: Conn, orgId: string, invoiceId: string): Promise<number> {
  const [row] = await conn
    .select({ total: sql<string>`coalesce(sum(${onlineRefunds.amount}), 0)` })
    .from(onlineRefunds)
    .where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.document_id, invoiceId), inArray(onlineRefunds.status, ['pending', 'requires_action'])));
  return Number(row?.total ?? 0);
}

/** The invoice's finalized credit note (one per invoice, the spec's rule), locked: the refund is recorded on it. */
export async function finalizedCreditNote(tx: Tx, orgId: string, invoiceId: string): Promise<FullDocumentRow | null> {
  const [row] = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), eq(documents.avoir_for_id, invoiceId), ne(documents.status, 'cancelled'), isNotNull(documents.finalized_at)))
    .orderBy(desc(documents.finalized_at))
    .limit(1);
  return row ? loadDocument(tx, orgId, row.id, true) : null;
}

/**
 * Records a refund of `input.amount` cents to the client of an issued invoice or deposit invoice, and answers the
 * invoice's payment balance (the refund as `payment`, on the credit note when there is one). 409 not_refundable
 * when nothing is owed, 422 on amount beyond what is owed.
 */
export async function recordRefund(db: Db, orgId: string, invoiceId: string, input: RefundInput): Promise<PaymentBalance> {
  return db.transaction(async (tx) => {
    // The invoice locked: refunds and payments of one invoice run one at a time, so two refunds cannot both fit.
    const invoice = await loadDocument(tx, orgId, invoiceId, true);
    if (!billed(invoice)) {
      const why = invoice.type === 'avoir' ? 'record the refund on the invoice it credits' : invoice.finalized_at ? `a ${invoice.type} is not paid` : 'it is a draft';
      throw conflict('not_refundable', `No refund can be recorded on this document: ${why}.`);
    }
    const paid_at = input.paid_at ?? todayParis();
    if (paid_at > todayParis()) throw validationError('paid_at', 'paid_at: a refund cannot be made in the future');
    const pending = await pendingRefundCents(tx, orgId, invoice.id);
    const owed = Math.max(0, (await refundableAmount(tx, orgId, invoice.id)) - pending);
    if (owed === 0) {
      const why = pending ? 'what is left is being refunded through the payment provider' : 'no overpayment or credit note is left to refund';
      throw conflict('not_refundable', `Nothing is owed to the client on ${invoice.number}: ${why}.`);
    }
    if (input.amount > owed) {
      throw pending
        ? validationError('amount', `amount: at most ${owed} cents can be refunded, what the client is owed less the refunds pending at the provider`)
        : validationError('amount', `amount: at most ${owed} cents can be refunded, what the client is owed`);
    }

    const creditNote = await finalizedCreditNote(tx, orgId, invoice.id);
    const entry = { amount: -input.amount, paid_at, method: input.method, reference: input.reference ?? null };
    // No status moves: a credit note's never does, and without one the refund is at most the overpayment
    // (balance = remaining_due), so the invoice's remaining_due stays ≤ 0 and a paid invoice stays paid.
    const { payment } = await applyPayment(tx, orgId, creditNote ?? invoice, entry, 'payment.refunded');
    const total_paid = await totalPaid(tx, orgId, invoice.id);
    return { payment, total_paid, remaining_due: remainingDue(invoice, total_paid), status: invoice.status };
  });
}

/**
 * A refund made at the provider (charge.refunded) of `amount` cents on an online payment of `invoice` (locked): what
 * the client was owed after a credit note is paid back on the credit note, as recordRefund does, so a credited and
 * refunded invoice stays paid; only what exceeds it goes on the invoice, which is then owed again.
 */
export async function applyProviderRefund(tx: Tx, orgId: string, invoice: FullDocumentRow, amount: number, entry: Omit<PaymentEntry, 'amount'>): Promise<void> {
  const creditNote = await finalizedCreditNote(tx, orgId, invoice.id);
  const onNote = creditNote ? Math.min(amount, await refundableAmount(tx, orgId, invoice.id)) : 0;
  if (onNote > 0) await applyPayment(tx, orgId, creditNote!, { ...entry, amount: -onNote }, 'payment.refunded');
  if (amount > onNote) await applyPayment(tx, orgId, invoice, { ...entry, amount: -(amount - onNote) });
}
