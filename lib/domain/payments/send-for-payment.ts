import type { Db } from '@/db/client';
import { loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { previewSend, SendDocumentInput, type SendDocumentResult, type SendPreview, sendDocument } from '@/lib/domain/sending';
import { requireReadyAccount } from './connect-account';
import { paymentLinkOf } from './payment-link-of';
import { assertPayableOnline, ensurePaymentLink, payUrl } from './payment-links';
import type { SendForPaymentInput } from './schemas';
import { requireProvider } from './stripe-provider';

/**
 * What a send for payment takes: the API's {email}; the back-office's one send dialog adds the copies, subject and
 * message of /send (the same e-mail, with the pay call to action).
 */
export type SendForPaymentOptions = SendForPaymentInput & Partial<Omit<SendDocumentInput, 'email'>>;

/** The spec's checks before anything is sent: provider configured (503), ready account (409), payable document (404, 409). */
async function checkPayable(db: Db, orgId: string, id: string) {
  requireProvider();
  await requireReadyAccount(db, orgId);
  assertPayableOnline(await loadDocument(db, orgId, id));
}

/**
 * POST /v1/invoices/{id}/send-for-payment: the invoice e-mail of /send (PDF, contact's language, status sent,
 * ladder armed, invoice.sent) with a "Payer en ligne" call to action to the document's payment page, the link
 * minted or recovered in the send's transaction. Checked in the spec's order: provider configured (503), connected
 * account (409 payments_account_required), able to take payments (409 payments_account_not_ready), the document
 * (404, then 409 not_payable), a recipient (422 no_recipient, from the sending module).
 */
export async function sendForPayment(db: Db, orgId: string, id: string, input: SendForPaymentOptions, now = new Date()): Promise<SendDocumentResult> {
  await checkPayable(db, orgId, id);
  return sendDocument(db, orgId, id, { ...SendDocumentInput.parse({}), ...input }, now, {
    payUrl: async (tx, doc) => {
      // Again under the send's lock: a cancellation or a payment may have landed since.
      assertPayableOnline(doc);
      const link = await ensurePaymentLink(tx, orgId, doc.id, { renew: true });
      if (!link.url) throw new ApiError(500, 'internal_error', 'The payment link could not be minted.');
      return link.url;
    },
  });
}

/**
 * The e-mail sendForPayment would write, nothing sent nor minted: the same refusals, and the document's link when it
 * has a recoverable one, else the page's address with a placeholder token (the link is minted by the send).
 */
export async function previewSendForPayment(db: Db, orgId: string, id: string, input: SendDocumentInput, now = new Date()): Promise<SendPreview> {
  await checkPayable(db, orgId, id);
  const url = (await paymentLinkOf(db, orgId, id))?.url ?? payUrl('lien-cree-a-l-envoi');
  return previewSend(db, orgId, id, input, now, url);
}
