import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { onlinePayments } from '@/db/schema';
import { loadDocument, remainingDue } from '@/lib/documents';
import { conflict } from '@/lib/errors';
import { requireReadyAccount } from './connect-account';
import { liveMandate } from './mandates';
import { type OnlinePaymentRow, toPublicOnlinePayment } from './online-payments';
import { assertPayableOnline } from './payment-links';
import { totalPaid } from './payments';
import type { OnlinePayment } from './schemas';
import { requireProvider } from './stripe-provider';

/** The provider's idempotency key of one attempt: the same (invoice, attempt) never debits twice. */
export const chargeMandateKey = (documentId: string, attempt: number) => `charge-mandate:${documentId}:${attempt}`;

async function attemptRow(db: Db, orgId: string, documentId: string, attempt: number): Promise<OnlinePaymentRow | null> {
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
 * other, found by its payment id. Replaying an attempt returns its first debit: no second call once recorded, and
 * the provider's idempotency key `charge-mandate:<invoice>:<attempt>` plus the unique (invoice, attempt) cover a race.
 *
 * Refusals, in order: 503 payments_disabled, 409 payments_account_required / payments_account_not_ready, 404 (another
 * org's or an unknown invoice), 409 not_payable (draft, quote, credit note, cancelled, paid), 409 payment_processing
 * (another debit of this invoice is on its way), 409 no_active_mandate.
 */
export async function chargeMandate(db: Db, orgId: string, documentId: string, attempt: number): Promise<OnlinePayment> {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('chargeMandate: attempt is an integer from 1');
  const provider = requireProvider();
  const account = await requireReadyAccount(db, orgId);
  const doc = await loadDocument(db, orgId, documentId);
  const replay = await attemptRow(db, orgId, doc.id, attempt);
  if (replay) return toPublicOnlinePayment(replay);
  assertPayableOnline(doc);
  const amount = remainingDue(doc, await totalPaid(db, orgId, doc.id));
  if (amount <= 0) throw conflict('not_payable', 'This document cannot be paid online: nothing is left to pay.');
  const [processing] = await db
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.document_id, doc.id), eq(onlinePayments.status, 'processing')))
    .limit(1);
  // The same attempt, written by a concurrent call since the replay check: its debit.
  if (processing?.mandate_attempt === attempt) return toPublicOnlinePayment(processing);
  if (processing) throw conflict('payment_processing', 'A debit of this document is already being processed; wait for its outcome before another attempt.');
  const mandate = await liveMandate(db, orgId, doc.contact_id);
  if (mandate?.status !== 'active') throw conflict('no_active_mandate', "The document's client has no active SEPA mandate: send them a mandate setup link first.");

  const intent = await provider.createOffSessionDebit(account.account_id, {
    customer_id: mandate.customer_id,
    payment_method_id: mandate.payment_method_id,
    mandate_id: mandate.mandate_id,
    amount,
    description: doc.number ?? doc.id,
    metadata: { org_id: orgId, document_id: doc.id, contact_id: doc.contact_id, mandate_attempt: String(attempt) },
    idempotency_key: chargeMandateKey(doc.id, attempt),
  });
  const failed = intent.status === 'requires_payment_method' || intent.status === 'canceled';
  await db
    .insert(onlinePayments)
    .values({
      org_id: orgId,
      document_id: doc.id,
      provider_payment_id: intent.id,
      method: 'sepa_debit',
      amount: intent.amount,
      status: failed ? 'failed' : 'processing',
      failure_message: failed ? intent.failure_message : null,
      mandate_attempt: attempt,
    })
    .onConflictDoNothing();
  // The row of this attempt: ours, or the one a concurrent call of the same attempt wrote first.
  const row = await attemptRow(db, orgId, doc.id, attempt);
  if (!row) throw conflict('payment_processing', 'A debit of this document is already being processed; wait for its outcome before another attempt.');
  return toPublicOnlinePayment(row);
}
