import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { onlinePayments } from '@/db/schema';
import { type Conn, type DocumentRow, loadDocument, remainingDue } from '@/lib/domain/documents';
import { conflict } from '@/lib/platform/errors';
import { requireReadyAccount } from './connect-account';
import { liveMandate } from './mandates';
import { type OnlinePaymentRow, toPublicOnlinePayment } from './online-payments';
import { assertPayableOnline } from './payment-links';
import { totalPaid } from './payments';
import type { OnlinePayment } from './schemas';
import { requireProvider } from './stripe-provider';

/** The provider's idempotency key of one attempt: the same (invoice, attempt) never debits twice. */
export const chargeMandateKey = (documentId: string, attempt: number) => `charge-mandate:${documentId}:${attempt}`;

async function attemptRow(db: Conn, orgId: string, documentId: string, attempt: number): Promise<OnlinePaymentRow | null> {
  const [row] = await db
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.document_id, documentId), eq(onlinePayments.mandate_attempt, attempt)));
  return row ?? null;
}

/**
 * Debits the balance of an invoice or deposit invoice off-session on its buyer contact's active SEPA mandate (what
 * recurring invoices call, `attempt` counting from 1 per invoice). The debit is recorded as an online payment
 * `processing` (method sepa_debit); it settles, or fails, through the provider's payment_intent.* events like any
 * other, found by its payment id. Replaying an attempt returns its first debit: no second call once recorded. The
 * attempt's row is reserved before the provider is called, so two attempts racing debit once; the provider's
 * idempotency key `charge-mandate:<invoice>:<attempt>` makes a retried attempt one debit.
 *
 * Refusals, in order: 503 payments_disabled, 409 payments_account_required / payments_account_not_ready, 404 (another
 * org's or an unknown invoice), 409 not_payable (draft, quote, credit note, cancelled, paid), 409 payment_processing
 * (another debit of this invoice is on its way), 409 no_active_mandate.
 */
/** A reservation older than the provider's call can last (20 s timeout, 2 network retries) was left by a dead process. */
const STALE_RESERVATION_MS = 120_000;

type SepaMandate = NonNullable<Awaited<ReturnType<typeof liveMandate>>>;

async function activeMandate(conn: Conn, orgId: string, contactId: string): Promise<SepaMandate> {
  const mandate = await liveMandate(conn, orgId, contactId);
  if (mandate?.status !== 'active') throw conflict('no_active_mandate', "The document's client has no active SEPA mandate: send them a mandate setup link first.");
  return mandate;
}

/**
 * The attempt's row, written (processing) before the provider is called, under the document's lock for this short
 * transaction only: a concurrent attempt finds it and debits nothing, and no lock is held across the HTTP call.
 * `reserved` is null when another debit of the document is processing; `ours` false when a concurrent call of the
 * same attempt wrote it.
 */
async function reserve(db: Db, orgId: string, doc: DocumentRow, attempt: number, amount: number) {
  return db.transaction(async (tx) => {
    await loadDocument(tx, orgId, doc.id, true);
    const [processing] = await tx
      .select()
      .from(onlinePayments)
      .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.document_id, doc.id), eq(onlinePayments.status, 'processing')))
      .limit(1);
    if (processing) return { reserved: processing.mandate_attempt === attempt ? processing : null, ours: false, mandate: null };
    const mandate = await activeMandate(tx, orgId, doc.contact_id);
    const [row] = await tx
      .insert(onlinePayments)
      .values({ org_id: orgId, document_id: doc.id, method: 'sepa_debit', amount, status: 'processing', mandate_attempt: attempt })
      .onConflictDoNothing()
      .returning();
    return row ? { reserved: row, ours: true, mandate } : { reserved: await attemptRow(tx, orgId, doc.id, attempt), ours: false, mandate: null };
  });
}

export async function chargeMandate(db: Db, orgId: string, documentId: string, attempt: number): Promise<OnlinePayment> {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('chargeMandate: attempt is an integer from 1');
  const provider = requireProvider();
  const account = await requireReadyAccount(db, orgId);
  const doc = await loadDocument(db, orgId, documentId);
  const replay = await attemptRow(db, orgId, doc.id, attempt);
  // A reservation left without its debit (its process died during the provider's call) is resumed by its attempt,
  // with its amount: the same idempotency key must carry the same parameters.
  const stale = replay && !replay.provider_payment_id && Date.now() - replay.created_at.getTime() > STALE_RESERVATION_MS;
  if (replay && !stale) return toPublicOnlinePayment(replay);
  let reserved: OnlinePaymentRow;
  let mandate: SepaMandate;
  if (stale) {
    reserved = replay;
    mandate = await activeMandate(db, orgId, doc.contact_id);
  } else {
    assertPayableOnline(doc);
    const amount = remainingDue(doc, await totalPaid(db, orgId, doc.id));
    if (amount <= 0) throw conflict('not_payable', 'This document cannot be paid online: nothing is left to pay.');
    const made = await reserve(db, orgId, doc, attempt, amount);
    // The same attempt, written by a concurrent call: its debit.
    if (!made.ours && made.reserved) return toPublicOnlinePayment(made.reserved);
    if (!made.ours || !made.reserved || !made.mandate) {
      throw conflict('payment_processing', 'A debit of this document is already being processed; wait for its outcome before another attempt.');
    }
    reserved = made.reserved;
    mandate = made.mandate;
  }

  let intent: Awaited<ReturnType<typeof provider.createOffSessionDebit>>;
  try {
    intent = await provider.createOffSessionDebit(account.account_id, {
      customer_id: mandate.customer_id,
      payment_method_id: mandate.payment_method_id,
      mandate_id: mandate.mandate_id,
      amount: reserved.amount,
      description: doc.number ?? doc.id,
      metadata: { org_id: orgId, document_id: doc.id, contact_id: doc.contact_id, mandate_attempt: String(attempt) },
      idempotency_key: chargeMandateKey(doc.id, attempt),
    });
  } catch (err) {
    // Nothing is known to be debited: the attempt may be tried again (the idempotency key keeps it one debit).
    await db.delete(onlinePayments).where(and(eq(onlinePayments.id, reserved.id), isNull(onlinePayments.provider_payment_id)));
    throw err;
  }
  const failed = intent.status === 'requires_payment_method' || intent.status === 'canceled';
  const [row] = await db
    .update(onlinePayments)
    .set({
      provider_payment_id: intent.id,
      amount: intent.amount,
      status: failed ? 'failed' : 'processing',
      failure_message: failed ? intent.failure_message : null,
      updated_at: sql`now()`,
    })
    .where(and(eq(onlinePayments.id, reserved.id), isNull(onlinePayments.provider_payment_id)))
    .returning();
  return toPublicOnlinePayment(row ?? (await attemptRow(db, orgId, doc.id, attempt))!);
}
