import type { Db } from '@/db/client';
import { loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { SendDocumentInput, type SendDocumentResult, sendDocument } from '@/lib/domain/sending';
import { requireReadyAccount } from './connect-account';
import { assertPayableOnline, ensurePaymentLink } from './payment-links';
import type { SendForPaymentInput } from './schemas';
import { requireProvider } from './stripe-provider';

/**
 * POST /v1/invoices/{id}/send-for-payment: the invoice e-mail of /send (PDF, contact's language, status sent,
 * ladder armed, invoice.sent) with a "Payer en ligne" call to action to the document's payment page, the link
 * minted or recovered in the send's transaction. Checked in the spec's order: provider configured (503), connected
 * account (409 payments_account_required), able to take payments (409 payments_account_not_ready), the document
 * (404, then 409 not_payable), a recipient (422 no_recipient, from the sending module).
 */
export async function sendForPayment(db: Db, orgId: string, id: string, input: SendForPaymentInput, now = new Date()): Promise<SendDocumentResult> {
  requireProvider();
  await requireReadyAccount(db, orgId);
  assertPayableOnline(await loadDocument(db, orgId, id));
  return sendDocument(db, orgId, id, { ...SendDocumentInput.parse({}), email: input.email }, now, {
    payUrl: async (tx, doc) => {
      // Again under the send's lock: a cancellation or a payment may have landed since.
      assertPayableOnline(doc);
      const link = await ensurePaymentLink(tx, orgId, doc.id, { renew: true });
      if (!link.url) throw new ApiError(500, 'internal_error', 'The payment link could not be minted.');
      return link.url;
    },
  });
}
