import { z } from 'zod';

const Day = z.iso.date();
const Url = z.url({ protocol: /^https?$/ });
const Cents = z.number().int().nonnegative();

/** What both e-mails of an online payment state: the document, the money, how and when it came, what is left. */
const Paid = {
  seller_name: z.string().trim().min(1).max(200),
  document_type: z.enum(['facture', 'acompte']),
  document_number: z.string().trim().min(1).max(35),
  /** The cents this payment brought. */
  amount_cents: Cents.min(1),
  method: z.enum(['card', 'sepa_debit']),
  /** The Paris day the provider settled it. */
  paid_at: Day,
  /** Total incl. VAT − payments, after this one (0: paid). */
  remaining_cents: Cents,
};

/** To the payer, once an online payment of their invoice is settled: a receipt (not an invoice). */
export const PaymentReceiptData = z
  .object({
    ...Paid,
    /** "Bonjour Jeanne," when given, "Bonjour," otherwise. */
    recipient_name: z.string().trim().max(200).nullish(),
    /** The invoice's /pay page (its PDF, what is left), when its link can be shown. */
    pay_url: Url.nullish(),
  })
  .strict();

/** To the org's owners and admins, once an online payment is settled: « facture payée » when it covers the rest. */
export const PaymentReceivedData = z
  .object({
    ...Paid,
    /** The client as the invoice names it. */
    client_name: z.string().trim().max(200).nullish(),
    /** The document's page in the back-office. */
    document_url: Url.nullish(),
  })
  .strict();
