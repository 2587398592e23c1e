import { PageQuery } from '@/lib/platform/http';
import { IdParams, operation, pageOf } from '@/lib/platform/contract';
import { SendDocumentResult } from '@/lib/domain/sending';
import { mandateOperations } from './mandate-operations';
import { OnlineRefund, OnlineRefundInput, Payment, PaymentBalance, PaymentInput, PaymentLink, PaymentParams, RefundInput, SendForPaymentInput } from './schemas';

const tag = 'Invoices';

export const listPaymentsOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/payments',
  tag,
  summary: "List a document's payments, newest first",
  scope: 'invoice:read',
  params: IdParams,
  query: PageQuery,
  responses: { 200: { description: 'A page of payments.', schema: pageOf(Payment, 'PaymentPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const recordPaymentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/payments',
  tag,
  summary: 'Record a payment',
  description: 'On a finalized invoice or deposit invoice. The status becomes paid when the payments cover total_ttc, sent otherwise.',
  scope: 'invoice:write',
  params: IdParams,
  body: PaymentInput,
  responses: { 201: { description: 'The payment and the balance.', schema: PaymentBalance } },
  errors: [[409, 'not_payable']],
});

export const deletePaymentOperation = operation({
  method: 'delete',
  path: '/v1/invoices/{id}/payments/{payment_id}',
  tag,
  summary: 'Delete a payment',
  description: 'The balance and the status are recomputed.',
  scope: 'invoice:write',
  params: PaymentParams,
  responses: { 200: { description: 'The balance after the deletion (payment null).', schema: PaymentBalance } },
});

export const recordRefundOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/refunds',
  tag,
  summary: 'Record a refund to the client (extension)',
  description:
    'An extension of the spec: money given back to the client of a finalized invoice or deposit invoice, at most what the client is owed ' +
    '(max(0, −balance), balance = total_ttc − payments − the finalized credit note net of its refunds). Stored as a payment with a negative ' +
    'amount, event payment.refunded: on the invoice\'s finalized credit note when it has one (its status does not move), else on the ' +
    'overpaid invoice itself (it stays paid). The answer is the invoice\'s payment balance; payment.document_id names the document the ' +
    'refund was recorded on. Delete a refund like a payment, on that document.',
  scope: 'invoice:write',
  params: IdParams,
  body: RefundInput,
  responses: { 201: { description: 'The refund and the invoice\'s balance.', schema: PaymentBalance } },
  errors: [[409, 'not_refundable']],
});

export const createOnlineRefundOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/online-refunds',
  tag,
  summary: 'Refund the client through the payment provider (extension)',
  description:
    'An extension of the spec: gives back `amount` cents of the online payment (card or SEPA debit) of a finalized invoice or deposit ' +
    'invoice, through the org\'s payment provider account. {id} is the invoice or its finalized credit note. At most what the client is ' +
    'owed (as POST /v1/invoices/{id}/refunds) less the refunds still pending, and at most what is left of one online payment. The refund ' +
    'is pending until the provider confirms it; only then is it counted, as POST …/refunds records one (a payment of −amount on the credit ' +
    'note, event payment.refunded); failed or canceled, nothing is counted. With an Idempotency-Key the same refund is answered again and ' +
    'the provider asked once. A refund made by transfer, cheque or cash is recorded with POST /v1/invoices/{id}/refunds.',
  scope: 'invoice:write',
  params: IdParams,
  body: OnlineRefundInput,
  responses: { 201: { description: 'The refund, usually pending.', schema: OnlineRefund } },
  errors: [
    [503, 'payments_disabled'],
    [409, 'payments_account_required'],
    [409, 'not_refundable'],
    [409, 'no_online_payment'],
    [502, 'payments_provider_error'],
  ],
});

export const listOnlineRefundsOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/online-refunds',
  tag,
  summary: "List an invoice's refunds through the payment provider (extension)",
  description: '{id} is the invoice or its finalized credit note. Newest first, with their status (pending, succeeded, failed…).',
  scope: 'invoice:read',
  params: IdParams,
  query: PageQuery,
  responses: { 200: { description: 'A page of online refunds.', schema: pageOf(OnlineRefund, 'OnlineRefundPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const createPaymentLinkOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/payment-link',
  tag,
  summary: 'Create or confirm the online payment link',
  description:
    'Of a finalized invoice or deposit invoice that is not paid or cancelled: the public page {APP_BASE_URL}/pay/{token} where the ' +
    'client pays the balance by card or SEPA debit without an account. The first call mints it (already_exists false); later calls ' +
    "return the same url (already_exists true), or null when the token can no longer be recovered. The link is durable (expires_at null).",
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: { description: 'The payment link.', schema: PaymentLink } },
  errors: [
    [503, 'payments_disabled'],
    [409, 'payments_account_required'],
    [409, 'not_payable'],
  ],
});

export const sendForPaymentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/send-for-payment',
  tag,
  summary: 'E-mail an invoice with a "pay online" call to action',
  description:
    'As POST /v1/invoices/{id}/send (the PDF attached, the contact\'s language, the document becomes sent, the reminder ladder is armed, ' +
    'event invoice.sent), for a finalized invoice or deposit invoice that is not paid or cancelled, with a "Payer en ligne" / "Pay online" ' +
    'button to its payment page; the payment link is minted or recovered. Needs the org\'s connected account able to take payments.',
  scope: 'invoice:write',
  params: IdParams,
  body: SendForPaymentInput.prefault({}),
  responses: { 200: { description: 'The document as sent, and the reminders armed.', schema: SendDocumentResult } },
  errors: [
    [503, 'payments_disabled'],
    [409, 'payments_account_required'],
    [409, 'payments_account_not_ready'],
    [409, 'not_payable'],
    [422, 'no_recipient'],
  ],
});

export const onlinePaymentOperations = [createPaymentLinkOperation, sendForPaymentOperation, ...mandateOperations];

export const paymentOperations = [listPaymentsOperation, recordPaymentOperation, deletePaymentOperation, recordRefundOperation, createOnlineRefundOperation, listOnlineRefundsOperation, ...onlinePaymentOperations];
