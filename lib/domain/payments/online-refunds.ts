import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { onlinePayments, onlineRefunds } from '@/db/schema';
import { type Conn, type FullDocumentRow, loadDocument } from '@/lib/domain/documents';
import { todayParis } from '@/lib/platform/dates';
import { ApiError, conflict, validationError } from '@/lib/platform/errors';
import { afterCursor, type Page, type PageQuery, toPage } from '@/lib/platform/http';
import { requireAccount } from './connect-account';
import { removeRefundRows } from './payments';
import type { PaymentProvider, ProviderRefundStatus, RefundInfo } from './provider';
import { applyProviderRefund, billed, finalizedCreditNote, pendingRefundCents, refundableAmount } from './refunds';
import type { OnlineRefund, OnlineRefundInput } from './schemas';
import { requireProvider } from './stripe-provider';

/*
 * Refunds through the payment provider (issue 35): asked from a credit note's page or POST /v1/invoices/{id}/online-refunds,
 * on the invoice's settled online payment. A row is written pending BEFORE the provider is called (its id is the
 * provider's idempotency key and travels in the refund's metadata), so a retry, a double click or an early
 * refund.created find it. The money is counted — a negative payment through refunds.ts, reference re_… — only when the
 * provider says succeeded (in its answer or in refund.created/updated); a failure counts nothing, or takes back what
 * was counted when it comes after success. Refunds still pending are held back from what can be refunded again.
 */

export type OnlineRefundRow = typeof onlineRefunds.$inferSelect;

/** Statuses each status may be reached from: failed and canceled are final, so a late `succeeded` copy counts nothing. */
const REACHABLE_FROM: Record<ProviderRefundStatus, ProviderRefundStatus[]> = {
  pending: [],
  requires_action: ['pending'],
  succeeded: ['pending', 'requires_action'],
  failed: ['pending', 'requires_action', 'succeeded'],
  canceled: ['pending', 'requires_action'],
};
const OPEN: ProviderRefundStatus[] = ['pending', 'requires_action'];

export function toPublicOnlineRefund(row: OnlineRefundRow): OnlineRefund {
  return {
    id: row.id,
    document_id: row.document_id,
    online_payment_id: row.online_payment_id,
    amount: row.amount,
    status: row.status,
    origin: row.origin,
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Cents asked from the provider on one online payment and not settled yet. */
async function pendingOnPayment(conn: Conn, orgId: string, onlinePaymentId: string): Promise<number> {
  const [row] = await conn
    .select({ total: sql<string>`coalesce(sum(${onlineRefunds.amount}), 0)` })
    .from(onlineRefunds)
    .where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.online_payment_id, onlinePaymentId), inArray(onlineRefunds.status, OPEN)));
  return Number(row?.total ?? 0);
}

export interface RefundState {
  /** What the client is owed (refundableAmount), refunds already counted deducted. */
  owed: number;
  /** Asked from the provider, not confirmed yet. */
  pending: number;
  /** owed − pending: what a new refund may give back. */
  refundable: number;
  /** The most one card/SEPA refund may give back (what is left of the best online payment), 0 when none was paid online. */
  online: number;
}

/** The settled online payments of an invoice, each with what is left to refund on it, most first. */
async function refundablePayments(conn: Conn, orgId: string, invoiceId: string) {
  const rows = await conn
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.document_id, invoiceId), eq(onlinePayments.status, 'succeeded')));
  const left = await Promise.all(
    rows.filter((r) => r.provider_payment_id).map(async (r) => ({ row: r, left: r.amount - r.amount_refunded - (await pendingOnPayment(conn, orgId, r.id)) })),
  );
  return left.filter((p) => p.left > 0).sort((a, b) => b.left - a.left);
}

export async function refundState(conn: Conn, orgId: string, invoiceId: string): Promise<RefundState> {
  const owed = await refundableAmount(conn, orgId, invoiceId);
  const pending = await pendingRefundCents(conn, orgId, invoiceId);
  const best = (await refundablePayments(conn, orgId, invoiceId))[0];
  const refundable = Math.max(0, owed - pending);
  return { owed, pending, refundable, online: Math.min(refundable, best?.left ?? 0) };
}

/** The invoice a refund is about: the document itself, or the invoice a finalized credit note credits. */
async function invoiceOf(conn: Conn, orgId: string, documentId: string): Promise<FullDocumentRow> {
  const doc = await loadDocument(conn, orgId, documentId);
  if (doc.type !== 'avoir') return doc;
  if (!doc.finalized_at || !doc.avoir_for_id) throw conflict('not_refundable', 'Finalize the credit note first: a draft credit note owes nothing.');
  return loadDocument(conn, orgId, doc.avoir_for_id);
}

/**
 * Writes what the provider says of a refund on its row (locked, with its invoice): the status moves forward only;
 * succeeded counts the money once, a failure after success takes it back.
 */
async function applyRefundInfo(tx: Tx, orgId: string, invoice: FullDocumentRow, row: OnlineRefundRow, info: RefundInfo, at: Date): Promise<OnlineRefundRow> {
  const set: Partial<OnlineRefundRow> = { provider_refund_id: row.provider_refund_id ?? info.id };
  if (info.status !== row.status && REACHABLE_FROM[info.status].includes(row.status)) {
    set.status = info.status;
    if (info.status === 'failed') set.failure_reason = info.failure_reason ?? 'unknown';
    const [payment] = await tx.select().from(onlinePayments).where(eq(onlinePayments.id, row.online_payment_id)).for('update');
    if (info.status === 'succeeded' && !row.counted) {
      await applyProviderRefund(tx, orgId, invoice, row.amount, { paid_at: todayParis(at), method: payment!.method ?? 'card', reference: info.id });
      await tx.update(onlinePayments).set({ amount_refunded: payment!.amount_refunded + row.amount, updated_at: sql`now()` }).where(eq(onlinePayments.id, payment!.id));
      set.counted = true;
    } else if (info.status === 'failed' && row.counted) {
      const note = await finalizedCreditNote(tx, orgId, invoice.id);
      if (note) await removeRefundRows(tx, orgId, note, info.id);
      await removeRefundRows(tx, orgId, invoice, info.id);
      await tx.update(onlinePayments).set({ amount_refunded: Math.max(0, payment!.amount_refunded - row.amount), updated_at: sql`now()` }).where(eq(onlinePayments.id, payment!.id));
      set.counted = false;
    }
  }
  const [updated] = await tx.update(onlineRefunds).set({ ...set, updated_at: sql`now()` }).where(eq(onlineRefunds.id, row.id)).returning();
  return updated!;
}

/**
 * Refunds `input.amount` cents through the provider to the client of an invoice (or of the invoice a credit note
 * credits): 201 with the refund, pending until the provider confirms. The same idempotency key answers the same refund.
 */
export async function createOnlineRefund(
  db: Db,
  orgId: string,
  documentId: string,
  input: OnlineRefundInput & { idempotency_key?: string | null },
  provider: PaymentProvider = requireProvider(),
): Promise<OnlineRefund> {
  const key = input.idempotency_key ?? null;
  const prepared = await db.transaction(async (tx) => {
    const target = await invoiceOf(tx, orgId, documentId);
    // The invoice locked: refunds and payments of one invoice run one at a time, so two refunds cannot both fit.
    const invoice = await loadDocument(tx, orgId, target.id, true);
    if (key) {
      const [prior] = await tx.select().from(onlineRefunds).where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.idempotency_key, key)));
      if (prior) {
        if (prior.document_id !== invoice.id || prior.amount !== input.amount) {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another refund; use a new key for a new refund.', 'Idempotency-Key');
        }
        return { row: prior, replay: true, invoice };
      }
    }
    if (!billed(invoice)) throw conflict('not_refundable', `No refund can be made on this document: a ${invoice.type} is not paid.`);
    const account = await requireAccount(tx, orgId);
    const state = await refundState(tx, orgId, invoice.id);
    if (state.refundable === 0) {
      throw conflict('not_refundable', `Nothing is left to refund to the client on ${invoice.number}: no overpayment or credit note is left, or a refund still pending holds it.`);
    }
    if (input.amount > state.refundable) {
      throw state.pending
        ? validationError('amount', `amount: at most ${state.refundable} cents can be refunded, what the client is owed less the refunds pending at the provider`)
        : validationError('amount', `amount: at most ${state.refundable} cents can be refunded, what the client is owed`);
    }
    const payment = (await refundablePayments(tx, orgId, invoice.id))[0];
    if (!payment) throw conflict('no_online_payment', `${invoice.number} was not paid online: record the refund made by transfer, cheque or cash instead.`);
    if (input.amount > payment.left) throw validationError('amount', `amount: at most ${payment.left} cents can be refunded through the provider, what is left of the online payment`);
    const [row] = await tx
      .insert(onlineRefunds)
      .values({ org_id: orgId, document_id: invoice.id, online_payment_id: payment.row.id, amount: input.amount, idempotency_key: key })
      .returning();
    return { row: row!, replay: false, invoice, account: account.account_id, intent: payment.row.provider_payment_id! };
  });
  if (prepared.replay && (prepared.row.provider_refund_id || !OPEN.includes(prepared.row.status))) return toPublicOnlineRefund(prepared.row);

  const row = prepared.row;
  const [intent, accountId] = prepared.replay ? await retryTarget(db, orgId, row) : [prepared.intent!, prepared.account!];
  let info: RefundInfo;
  try {
    info = await provider.createRefund(accountId, {
      payment_intent_id: intent,
      amount: row.amount,
      metadata: { org_id: orgId, document_id: row.document_id, online_refund_id: row.id },
      idempotency_key: `online-refund:${row.id}`,
    });
  } catch (err) {
    // The provider refused (502): nothing was refunded, said on the row. Anything else (no answer) leaves it
    // pending: the provider may have made it, its refund.created (our id in the metadata) will tell.
    if (err instanceof ApiError && err.status === 502) {
      await db.update(onlineRefunds).set({ status: 'failed', failure_reason: err.message, updated_at: sql`now()` }).where(and(eq(onlineRefunds.id, row.id), inArray(onlineRefunds.status, OPEN)));
    }
    throw err;
  }
  return db.transaction(async (tx) => {
    const invoice = await loadDocument(tx, orgId, row.document_id, true);
    const [locked] = await tx.select().from(onlineRefunds).where(eq(onlineRefunds.id, row.id)).for('update');
    return toPublicOnlineRefund(await applyRefundInfo(tx, orgId, invoice, locked!, info, new Date()));
  });
}

/** A replayed refund whose provider call never answered: the same payment and account, the same provider key. */
async function retryTarget(db: Db, orgId: string, row: OnlineRefundRow): Promise<[string, string]> {
  const [payment] = await db.select().from(onlinePayments).where(eq(onlinePayments.id, row.online_payment_id));
  const account = await requireAccount(db, orgId);
  return [payment!.provider_payment_id!, account.account_id];
}

/** An invoice's (or its credit note's invoice's) online refunds, newest first. */
export async function listOnlineRefunds(db: Db, orgId: string, documentId: string, query: PageQuery): Promise<Page<OnlineRefund>> {
  const invoice = await invoiceOf(db, orgId, documentId);
  const rows = await db
    .select()
    .from(onlineRefunds)
    .where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.document_id, invoice.id), afterCursor(onlineRefunds.id, query.cursor)))
    .orderBy(desc(onlineRefunds.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicOnlineRefund);
}

/**
 * What a provider's refund object says (refund.created / updated / failed, or a charge's refunds), in the webhook's
 * transaction: ours by its id or our id in its metadata; one made in the provider's dashboard on one of our online
 * payments is recorded then (origin provider). `settle` first records the payment if its success is not known yet.
 */
export async function syncProviderRefund(
  tx: Tx,
  orgId: string,
  info: RefundInfo,
  at: Date,
  findPayment: () => Promise<{ doc: FullDocumentRow; paymentId: string } | null>,
): Promise<void> {
  const ours = info.metadata.online_refund_id;
  let [row] = await tx.select().from(onlineRefunds).where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.provider_refund_id, info.id)));
  if (!row && ours && /^[0-9a-f-]{36}$/i.test(ours)) [row] = await tx.select().from(onlineRefunds).where(and(eq(onlineRefunds.org_id, orgId), eq(onlineRefunds.id, ours)));
  let invoice: FullDocumentRow;
  if (row) {
    invoice = await loadDocument(tx, orgId, row.document_id, true);
  } else {
    const found = await findPayment();
    if (!found) return;
    invoice = found.doc;
    [row] = await tx
      .insert(onlineRefunds)
      .values({ org_id: orgId, document_id: invoice.id, online_payment_id: found.paymentId, amount: info.amount, origin: 'provider', provider_refund_id: info.id })
      .onConflictDoNothing()
      .returning();
    if (!row) return;
  }
  const [locked] = await tx.select().from(onlineRefunds).where(eq(onlineRefunds.id, row.id)).for('update');
  await applyRefundInfo(tx, orgId, invoice, locked!, info, at);
}
