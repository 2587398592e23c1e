import { PageQuery } from '@/lib/http/pagination';
import { operation } from '@/lib/openapi/operation';
import { IdParams, pageOf } from '@/lib/openapi/schemas';
import { Payment, PaymentBalance, PaymentInput, PaymentParams } from './schemas';

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

export const paymentOperations = [listPaymentsOperation, recordPaymentOperation, deletePaymentOperation];
