import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { memberships, onlinePayments, payments, users } from '@/db/schema';
import { loadContactRow, loadDocument, remainingDue } from '@/lib/domain/documents';
import { contactEmail, greetingName, languageOf } from '@/lib/domain/reminders';
import { appBaseUrl } from '@/lib/platform/config';
import { queueEmail } from '@/lib/platform/email';
import { subscribe } from '@/lib/platform/events';
import { defineJob } from '@/lib/platform/jobs';
import { getOrg } from '@/lib/platform/orgs';
import { paymentLinkOf } from './payment-link-of';
import { totalPaid } from './payments';
import type { Payment } from './schemas';

/*
 * After an online payment is settled (the provider's event recorded it: payment.recorded), the payer gets a receipt
 * in their language and the org's owners and admins a notice (« Facture … payée » once nothing is left). A job, not
 * the webhook's transaction: rendering two e-mails does not hold the document's lock, and a failure is retried
 * without making Stripe redeliver. Payments typed in by staff (a transfer, a cheque, a card on a terminal) send
 * nothing: staff know, and a payment recorded late or to correct the books must not write to the client.
 */

export interface PaymentEmailsJobData {
  org_id: string;
  payment_id: string;
}

export interface QueuedPaymentEmails {
  /** The payer's receipt was queued (false: no e-mail address for the contact). */
  receipt: boolean;
  /** How many owners and admins the notice went to. */
  notified: number;
}

/**
 * Queues the receipt and the notice of a settled online payment, once: the online payment is claimed
 * (`receipts_queued_at`) in the transaction that queues both, so a retried job, a second job or a replayed provider
 * event finds it claimed and sends nothing. Null when there is nothing to send: no online payment settled this
 * payment (one recorded by staff), it was claimed already, or the payment was deleted since.
 */
export async function queuePaymentEmails(db: Db, orgId: string, paymentId: string): Promise<QueuedPaymentEmails | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(onlinePayments)
      .set({ receipts_queued_at: new Date() })
      .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.payment_id, paymentId), eq(onlinePayments.status, 'succeeded'), isNull(onlinePayments.receipts_queued_at)))
      .returning({ document_id: onlinePayments.document_id, language: onlinePayments.language });
    if (!claimed) return null;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.org_id, orgId), eq(payments.id, paymentId)));
    if (!payment || payment.amount <= 0 || (payment.method !== 'card' && payment.method !== 'sepa_debit')) return null;
    const doc = await loadDocument(tx, orgId, claimed.document_id);
    if (doc.type !== 'facture' && doc.type !== 'acompte') return null;
    const contact = await loadContactRow(tx, orgId, doc.contact_id);
    const org = await getOrg(tx, orgId);
    const paid = await totalPaid(tx, orgId, doc.id);
    const link = await paymentLinkOf(tx, orgId, doc.id);
    const common = {
      seller_name: org.name,
      document_type: doc.type,
      document_number: doc.number!,
      amount_cents: payment.amount,
      method: payment.method,
      paid_at: payment.paid_at,
      remaining_cents: Math.max(0, remainingDue(doc, paid)),
    };

    const to = contactEmail(contact);
    if (to) {
      await queueEmail(tx, orgId, {
        to: [to],
        replyTo: org.email,
        template: 'payment_receipt',
        // The page's language when they paid; else (an off-session debit) the contact's, as every e-mail to them.
        language: claimed.language ?? languageOf(doc, contact),
        documentId: doc.id,
        data: { ...common, recipient_name: greetingName(contact), pay_url: link?.url ?? null },
      });
    }

    const staff = await tx
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.user_id))
      .where(and(eq(memberships.org_id, orgId), inArray(memberships.role, ['owner', 'admin'])))
      .orderBy(users.email);
    if (staff.length) {
      await queueEmail(tx, orgId, {
        to: staff.slice(0, 50).map((s) => s.email),
        template: 'payment_received',
        language: 'fr',
        documentId: doc.id,
        data: {
          ...common,
          client_name: (doc.client_snapshot as { name?: string | null } | null)?.name ?? null,
          document_url: `${appBaseUrl()}/documents/${doc.id}`,
        },
      });
    }
    return { receipt: Boolean(to), notified: Math.min(staff.length, 50) };
  });
}

export const paymentEmailsJob = defineJob<PaymentEmailsJobData>({
  name: 'payments.payment-emails',
  // A template or database failure is retried for about half an hour, then the job fails visibly.
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  async handle(data, { db }) {
    await queuePaymentEmails(db, data.org_id, data.payment_id);
  },
});

/**
 * payment.recorded writes the job in the settling transaction. Only card and SEPA debit payments can be online ones
 * (a refund is payment.refunded); the job then checks that an online payment settled it.
 */
export const emailsOnPaymentRecorded = subscribe<PaymentEmailsJobData>({
  events: ['payment.recorded'],
  job: paymentEmailsJob,
  when: (event) => {
    const payment = event.object as Payment;
    return payment.amount > 0 && (payment.method === 'card' || payment.method === 'sepa_debit');
  },
  data: (event) => ({ org_id: event.org_id, payment_id: (event.object as Payment).id }),
});
