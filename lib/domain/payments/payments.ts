import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents, payments } from '@/db/schema';
import { notFound, validationError } from '@/lib/platform/errors';
import { recordEvent } from '@/lib/platform/events';
import { afterCursor, type Page, type PageQuery, toPage } from '@/lib/platform/http';
import { assertAllowed, type Conn, type DocumentRow, type FullDocumentRow, loadDocument, PAYABLE_STATUSES, recordDocumentEvent, remainingDue, setStatus } from '@/lib/domain/documents';
import { todayParis } from '@/lib/platform/dates';
import type { Payment, PaymentInput } from './schemas';

export type PaymentRow = typeof payments.$inferSelect;

export interface PaymentBalance {
  payment: Payment | null;
  total_paid: number;
  remaining_due: number;
  status: DocumentRow['status'];
}

export function toPublicPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    document_id: row.document_id,
    amount: row.amount,
    paid_at: row.paid_at,
    method: row.method,
    reference: row.reference,
    created_at: row.created_at.toISOString(),
  };
}

/** A client's latest payments, newest first, each with the number of the document it paid (the client's page). */
export async function recentPaymentsOfContact(db: Db, orgId: string, contactId: string, limit = 5): Promise<Array<Payment & { document_number: string | null }>> {
  const rows = await db
    .select({ payment: payments, document_number: documents.number })
    .from(payments)
    .innerJoin(documents, and(eq(documents.id, payments.document_id), eq(documents.org_id, orgId)))
    .where(and(eq(payments.org_id, orgId), eq(documents.contact_id, contactId)))
    .orderBy(desc(payments.paid_at), desc(payments.created_at))
    .limit(limit);
  return rows.map((r) => ({ ...toPublicPayment(r.payment), document_number: r.document_number }));
}

export async function totalPaid(conn: Conn, orgId: string, documentId: string): Promise<number> {
  const [row] = await conn
    .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(and(eq(payments.org_id, orgId), eq(payments.document_id, documentId)));
  return Number(row?.total ?? 0);
}

/**
 * paid when the payments cover total_ttc, else sent (money is expected). Only the payment-driven statuses of an
 * invoice or deposit invoice move: a cancelled document keeps its status whatever its payments, and so does a
 * credit note whose refund (lib/domain/payments/refunds.ts) is recorded or deleted.
 */
async function recompute(tx: Tx, orgId: string, doc: FullDocumentRow, payment: Payment | null): Promise<PaymentBalance> {
  const total_paid = await totalPaid(tx, orgId, doc.id);
  const remaining_due = remainingDue(doc, total_paid);
  let status = doc.status;
  if ((doc.type === 'facture' || doc.type === 'acompte') && PAYABLE_STATUSES.includes(doc.status)) {
    status = remaining_due <= 0 ? 'paid' : 'sent';
    if (status !== doc.status) {
      const updated = await setStatus(tx, orgId, doc, status);
      await recordDocumentEvent(tx, orgId, status === 'paid' ? 'invoice.paid' : 'invoice.updated', updated);
    }
  }
  return { payment, total_paid, remaining_due, status };
}

/** A row of `payments`: a payment received, or a refund (a negative amount). */
export interface PaymentEntry {
  amount: number;
  paid_at: string;
  method: PaymentRow['method'];
  reference: string | null;
}

/**
 * The one way money is written (manual payments, settled online payments, refunds): the row, its event
 * (payment.recorded, or payment.refunded for a negative amount) and the status recomputed, inside the caller's
 * transaction, on a document the caller loaded FOR UPDATE.
 */
export async function applyPayment(
  tx: Tx,
  orgId: string,
  doc: FullDocumentRow,
  entry: PaymentEntry,
  event: 'payment.recorded' | 'payment.refunded' = entry.amount < 0 ? 'payment.refunded' : 'payment.recorded',
): Promise<PaymentBalance> {
  const [row] = await tx
    .insert(payments)
    .values({ org_id: orgId, document_id: doc.id, amount: entry.amount, paid_at: entry.paid_at, method: entry.method, reference: entry.reference })
    .returning();
  const payment = toPublicPayment(row!);
  await recordEvent(tx, orgId, event, payment);
  return recompute(tx, orgId, doc, payment);
}

/**
 * Takes back the refund rows written under `reference` on `doc` (locked): a provider refund that failed after it
 * succeeded (online-refunds.ts). Each deletion emits payment.deleted; the status is recomputed.
 */
export async function removeRefundRows(tx: Tx, orgId: string, doc: FullDocumentRow, reference: string): Promise<number> {
  const rows = await tx
    .delete(payments)
    .where(and(eq(payments.org_id, orgId), eq(payments.document_id, doc.id), eq(payments.reference, reference), sql`${payments.amount} < 0`))
    .returning();
  for (const row of rows) await recordEvent(tx, orgId, 'payment.deleted', toPublicPayment(row));
  if (rows.length) await recompute(tx, orgId, doc, null);
  return rows.length;
}

export async function recordPayment(db: Db, orgId: string, documentId: string, input: PaymentInput): Promise<PaymentBalance> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    // Payments are recorded on finalized invoices and deposit invoices that are not cancelled (409 not_payable).
    await assertAllowed(tx, orgId, doc, 'recordPayment');
    const paid_at = input.paid_at ?? todayParis();
    if (paid_at > todayParis()) throw validationError('paid_at', 'paid_at: a payment cannot be received in the future');
    return applyPayment(tx, orgId, doc, { amount: input.amount, paid_at, method: input.method, reference: input.reference ?? null });
  });
}

export async function deletePayment(db: Db, orgId: string, documentId: string, paymentId: string): Promise<PaymentBalance> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    const [row] = await tx
      .delete(payments)
      .where(and(eq(payments.org_id, orgId), eq(payments.document_id, doc.id), eq(payments.id, paymentId)))
      .returning();
    if (!row) throw notFound('Payment');
    await recordEvent(tx, orgId, 'payment.deleted', toPublicPayment(row));
    return recompute(tx, orgId, doc, null);
  });
}

/** A document's payments, newest first. */
export async function listPayments(db: Db, orgId: string, documentId: string, query: PageQuery): Promise<Page<Payment>> {
  const doc = await loadDocument(db, orgId, documentId);
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.org_id, orgId), eq(payments.document_id, doc.id), afterCursor(payments.id, query.cursor)))
    .orderBy(desc(payments.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicPayment);
}
