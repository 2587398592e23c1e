import { z } from 'zod';
import { DOCUMENT_STATUSES, PAYMENT_METHODS } from '@/db/schema/billing';
import { ONLINE_PAYMENT_METHODS, ONLINE_PAYMENT_STATUSES, ONLINE_REFUND_STATUSES } from '@/db/schema/online-payments';
import { Cents } from '@/lib/platform/money';
import { IsoDate, nullableString, PathId, Timestamp, text } from '@/lib/platform/contract';
import { SendDocumentInput } from '@/lib/domain/sending';

export const PaymentInput = z
  .strictObject({
    amount: Cents()
      .min(1, { error: 'must be at least 1 cent' })
      .meta({ description: 'Cents received. More than the balance is allowed: remaining_due becomes negative.' }),
    paid_at: IsoDate.optional().meta({ description: 'Day the money was received; defaults to today. Not in the future.' }),
    method: z
      .enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` })
      .default('bank_transfer')
      .meta({ description: 'bank_transfer (default), card, sepa_debit, cheque, cash or other.' }),
    reference: text(200).meta({ description: 'Bank reference, cheque number…' }),
  })
  .meta({ id: 'PaymentInput' });
export type PaymentInput = z.output<typeof PaymentInput>;

export const RefundInput = z
  .strictObject({
    amount: Cents()
      .min(1, { error: 'must be at least 1 cent' })
      .meta({ description: 'Cents given back, positive; stored as a payment of −amount. At most what the client is owed (max(0, −balance)).' }),
    paid_at: IsoDate.optional().meta({ description: 'Day the money was given back; defaults to today. Not in the future.' }),
    method: z
      .enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` })
      .default('bank_transfer')
      .meta({ description: 'bank_transfer (default), card, sepa_debit, cheque, cash or other.' }),
    reference: text(200).meta({ description: 'Bank reference of the transfer, cheque number…' }),
  })
  .meta({ id: 'RefundInput' });
export type RefundInput = z.output<typeof RefundInput>;

export const Payment = z
  .object({
    id: z.uuid().meta({ description: 'The payment’s id.' }),
    document_id: z.uuid().meta({ description: 'The invoice or deposit invoice paid.' }),
    amount: z.number().int().meta({ description: 'Cents received; negative for a refund.' }),
    paid_at: IsoDate,
    method: z.enum(PAYMENT_METHODS).meta({ description: 'bank_transfer, card, sepa_debit, cheque, cash or other.' }),
    reference: nullableString.meta({ description: 'Bank reference, cheque number…; null when none.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const PaymentBalance = z
  .object({
    payment: Payment.nullable().meta({ description: 'The recorded payment; null after a deletion.' }),
    total_paid: z.number().int().meta({ description: 'Payments less refunds, in cents.' }),
    remaining_due: z.number().int().meta({ description: 'total_ttc − total_paid; negative on overpayment.' }),
    status: z.enum(DOCUMENT_STATUSES).meta({ description: 'The document’s status after the change (paid once total_paid reaches total_ttc).' }),
  })
  .meta({ id: 'PaymentBalance' });

export const PaymentParams = z.object({ id: PathId, payment_id: PathId.meta({ description: 'The payment’s id.' }) });

export const PaymentLink = z
  .object({
    already_exists: z.boolean().meta({ description: 'true on an idempotent replay: the link existed before this call.' }),
    url: z
      .string()
      .nullable()
      .meta({ description: "The public payment page, {APP_BASE_URL}/pay/{token}; null when an existing link's token cannot be recovered." }),
    expires_at: Timestamp.nullable().meta({ description: 'null: durable, until the document is paid or cancelled.' }),
  })
  .meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof PaymentLink>;

export const SendForPaymentInput = SendDocumentInput.pick({ email: true }).meta({
  id: 'SendForPaymentInput',
  description: 'Optional. email overrides the recipient for this send only; the contact is not modified.',
});
export type SendForPaymentInput = z.output<typeof SendForPaymentInput>;

/** An attempt to collect a document online (Checkout or an off-session SEPA debit), as staff and integrators see it. */
export const OnlinePayment = z
  .object({
    id: z.uuid().meta({ description: 'The online payment’s id.' }),
    document_id: z.uuid().meta({ description: 'The invoice or deposit invoice it pays.' }),
    method: z.enum(ONLINE_PAYMENT_METHODS).nullable().meta({ description: 'null until the payer chose (a session may allow both).' }),
    amount: z.number().int().meta({ description: 'Cents asked for.' }),
    status: z.enum(ONLINE_PAYMENT_STATUSES).meta({
      description:
        'open: waiting for the payer; processing: a SEPA debit on its way (not paid yet); succeeded: settled and recorded as a payment; failed; expired; canceled.',
    }),
    failure_message: nullableString.meta({ description: "The provider's reason of a failure." }),
    amount_refunded: z.number().int().meta({ description: 'Cents refunded at the provider so far.' }),
    dispute_status: nullableString.meta({ description: "The provider's dispute status (needs_response, won, lost…); null when none." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'OnlinePayment' });
export type OnlinePayment = z.infer<typeof OnlinePayment>;

export const OnlineRefundInput = z
  .strictObject({
    amount: Cents()
      .min(1, { error: 'must be at least 1 cent' })
      .meta({
        description:
          'Cents given back to the payer through the provider. At most what the client is owed less the refunds still pending, and at most what is left of one online payment.',
      }),
  })
  .meta({ id: 'OnlineRefundInput' });
export type OnlineRefundInput = z.output<typeof OnlineRefundInput>;

/** A refund through the payment provider, as staff and integrators see it (the provider's ids stay on the server). */
export const OnlineRefund = z
  .object({
    id: z.uuid().meta({ description: 'The online refund’s id.' }),
    document_id: z.uuid().meta({ description: 'The invoice or deposit invoice refunded.' }),
    online_payment_id: z.uuid().meta({ description: 'The online payment given back.' }),
    amount: z.number().int().meta({ description: 'Cents refunded, positive.' }),
    status: z.enum(ONLINE_REFUND_STATUSES).meta({
      description:
        'pending: asked, the provider has not confirmed; requires_action: the provider needs the org to act; succeeded: given back and counted (a payment of −amount, event payment.refunded); failed or canceled: nothing counted.',
    }),
    origin: z.enum(['paraphe', 'provider']).meta({ description: 'paraphe: asked here; provider: made in the provider’s dashboard.' }),
    failure_reason: nullableString.meta({ description: "The provider's reason of a failure or refusal; null otherwise." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'OnlineRefund' });
export type OnlineRefund = z.infer<typeof OnlineRefund>;
