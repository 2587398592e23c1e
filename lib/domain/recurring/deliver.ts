import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { recurringGenerations } from '@/db/schema';
import { finalizeDocument, loadContactRow, loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { canTakePayments, chargeMandate, sendForPayment } from '@/lib/domain/payments';
import { contactEmail } from '@/lib/domain/reminders';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { type GenerationRow, loadGeneration, reasonOf, recordDeliveryFailure } from './generations';
import { loadTemplate } from './templates';

async function setGeneration(db: Db, id: string, changes: Partial<GenerationRow>, onlyWhen?: ReturnType<typeof isNull>) {
  const [row] = await db
    .update(recurringGenerations)
    .set({ ...changes, updated_at: new Date() })
    .where(and(eq(recurringGenerations.id, id), onlyWhen))
    .returning();
  return row ?? null;
}

/**
 * auto_send: finalizes the generated draft and e-mails it through lib/domain/sending (with the payment link through
 * lib/domain/payments' send-for-payment when the org can take payments), then, with auto_collect_sepa, debits the contact's
 * active mandate off-session (lib/domain/payments chargeMandate, attempt 1: one debit per invoice, ever). Each step is
 * skipped when already done, so a retried job resumes. A refusal (no recipient, finalization refused, no mandate)
 * is recorded on the generation and the template with recurring_invoice.failed; a draft without a recipient stays a
 * draft (nothing numbered for nothing); a failed debit leaves the sent invoice to its reminder ladder. Unexpected
 * errors are thrown for the job's retries.
 */
export async function deliverGeneration(db: Db, orgId: string, generationId: string, now = new Date()): Promise<GenerationRow | null> {
  let gen = await loadGeneration(db, orgId, generationId);
  if (!gen?.document_id || gen.status === 'failed') return gen;
  const template = await loadTemplate(db, orgId, gen.template_id);
  if (!template.auto_send) return gen;
  if (gen.status === 'generated') {
    const doc = await loadDocument(db, orgId, gen.document_id);
    // A draft has never been sent (sent_at null): finalizing it here leaves it so, nothing to read back.
    if (doc.status === 'draft') {
      if (!contactEmail(await loadContactRow(db, orgId, doc.contact_id))) {
        return recordDeliveryFailure(db, gen, { stage: 'send', reason: 'no_recipient: the contact has no e-mail address; the invoice stays a draft.' }, now);
      }
      try {
        await finalizeDocument(db, orgId, doc.id, now);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return recordDeliveryFailure(db, gen, { stage: 'finalize', reason: reasonOf(err) }, now);
      }
    }
    if (!doc.sent_at) {
      try {
        if (await canTakePayments(db, orgId)) await sendForPayment(db, orgId, doc.id, { email: null }, now);
        else await sendDocument(db, orgId, doc.id, SendDocumentInput.parse({}), now);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return recordDeliveryFailure(db, gen, { stage: 'send', reason: reasonOf(err) }, now);
      }
    }
    gen = (await setGeneration(db, gen.id, { status: 'sent', stage: null, error: null })) ?? gen;
  }
  if (template.auto_collect_sepa) gen = await collect(db, orgId, gen, now);
  return gen;
}

/** The off-session debit, requested once per generation (claimed by collect_status, then attempt 1 at the provider). */
async function collect(db: Db, orgId: string, gen: GenerationRow, now: Date): Promise<GenerationRow> {
  const claimed = await setGeneration(db, gen.id, { collect_status: 'processing' }, isNull(recurringGenerations.collect_status));
  if (!claimed) return gen;
  try {
    const payment = await chargeMandate(db, orgId, gen.document_id!, 1);
    if (payment.status === 'failed') {
      await setGeneration(db, gen.id, { online_payment_id: payment.id });
      return recordDeliveryFailure(db, { ...claimed, online_payment_id: payment.id }, { collect: `debit_failed: ${payment.failure_message ?? 'the bank refused the debit'}` }, now);
    }
    return (await setGeneration(db, gen.id, { online_payment_id: payment.id })) ?? claimed;
  } catch (err) {
    return recordDeliveryFailure(db, claimed, { collect: reasonOf(err) }, now);
  }
}
