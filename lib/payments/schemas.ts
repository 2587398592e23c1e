import { z } from 'zod';
import { DOCUMENT_STATUSES, PAYMENT_METHODS } from '@/db/schema/billing';
import { Cents } from '@/lib/money';
import { IsoDate, nullableString, PathId, Timestamp, text } from '@/lib/openapi/schemas';
import { SendDocumentInput } from '@/lib/sending';

export const PaymentInput = z
  .strictObject({
    amount: Cents()
      .min(1, { error: 'must be at least 1 cent' })
      .meta({ description: 'Cents received. More than the balance is allowed: remaining_due becomes negative.' }),
    paid_at: IsoDate.optional().meta({ description: 'Day the money was received; defaults to today. Not in the future.' }),
    method: z
      .enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` })
      .default('bank_transfer'),
    reference: text(200).meta({ description: 'Bank reference, cheque number…' }),
  })
  .meta({ id: 'PaymentInput' });
export type PaymentInput = z.output<typeof PaymentInput>;

export const Payment = z
  .object({
    id: z.uuid(),
    document_id: z.uuid(),
    amount: z.number().int(),
    paid_at: IsoDate,
    method: z.enum(PAYMENT_METHODS),
    reference: nullableString,
    created_at: Timestamp,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const PaymentBalance = z
  .object({
    payment: Payment.nullable().meta({ description: 'The recorded payment; null after a deletion.' }),
    total_paid: z.number().int(),
    remaining_due: z.number().int().meta({ description: 'total_ttc − total_paid; negative on overpayment.' }),
    status: z.enum(DOCUMENT_STATUSES),
  })
  .meta({ id: 'PaymentBalance' });

export const PaymentParams = z.object({ id: PathId, payment_id: PathId });

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
