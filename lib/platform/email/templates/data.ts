import { z } from 'zod';
import { DOCUMENT_TYPES } from '@/db/schema';

const Day = z.iso.date();
const Url = z.url({ protocol: /^https?$/ });
const Cents = z.number().int().nonnegative();

/** Fields every template shares. Amounts are integer cents (TTC); dates are calendar days "YYYY-MM-DD". */
const Common = {
  /** The org's name as the client knows it (trade or legal name). */
  seller_name: z.string().trim().min(1).max(200),
  /** "Bonjour Jeanne," when given, "Bonjour," otherwise. */
  recipient_name: z.string().trim().max(200).nullish(),
  document_number: z.string().trim().min(1).max(35),
  /** The sender's own words, quoted in the e-mail as written. */
  message: z.string().trim().max(5000).nullish(),
};

/** A finalized quote, invoice, deposit invoice or credit note sent to the client (its PDF attached). */
export const DocumentSentData = z
  .object({
    ...Common,
    document_type: z.enum(DOCUMENT_TYPES),
    amount_cents: Cents,
    /** Invoices and deposit invoices: payable by then. */
    due_date: Day.nullish(),
    /** Quotes: valid until then. */
    validity_date: Day.nullish(),
    /** Credit notes: the number of the invoice it credits. */
    credited_document_number: z.string().trim().max(35).nullish(),
    /** Invoices and deposit invoices: the online payment page. */
    pay_url: Url.nullish(),
  })
  .strict()
  .refine((d) => !d.pay_url || d.document_type === 'facture' || d.document_type === 'acompte', {
    path: ['pay_url'],
    message: 'Only an invoice or a deposit invoice is paid online.',
  });

/** Escalating reminder tones: before the due date, after it, and the formal last notice. */
export const REMINDER_TONES = ['gentle', 'firm', 'final'] as const;
export type ReminderTone = (typeof REMINDER_TONES)[number];

/** A reminder of an unpaid invoice or deposit invoice. */
export const PaymentReminderData = z
  .object({
    ...Common,
    document_type: z.enum(['facture', 'acompte']),
    /** What is still owed (total minus payments). */
    amount_due_cents: Cents,
    due_date: Day,
    tone: z.enum(REMINDER_TONES),
    /**
     * The client is a business: the last notice then states the late-payment penalties and the €40 fixed
     * recovery indemnity (French Commercial Code, art. L441-10), which do not apply to consumers.
     */
    business_client: z.boolean(),
    /** The penalty rate as the invoice states it, e.g. "de 3 fois le taux d'intérêt légal"; default: "at the rate stated on the invoice". */
    late_penalty_terms: z.string().trim().max(300).nullish(),
    pay_url: Url.nullish(),
  })
  .strict();

/** A reminder that an open quote lapses soon. */
export const QuoteExpiryReminderData = z
  .object({
    ...Common,
    amount_cents: Cents,
    validity_date: Day,
  })
  .strict();

/**
 * A security notice to a staff user (not a client): sign-in to their account is locked for a while after too many
 * wrong passwords (lib/platform/next/throttle.ts). Sent by Paraphe itself, so it has no seller.
 */
export const AccountLockedData = z
  .object({
    /** The account's e-mail, as the user signs in with it. */
    account_email: z.email(),
    /** Wrong passwords that led to the lock. */
    failures: z.number().int().positive(),
    /** When sign-in opens again (ISO 8601 instant). */
    locked_until: z.iso.datetime({ offset: true }),
    /** The network address of the last failed attempt, as the server saw it. */
    address: z.string().trim().max(100).nullish(),
    /** The login page. */
    login_url: Url.nullish(),
  })
  .strict();

/** To an org's owners and admins when the service disables a webhook endpoint that kept failing. */
export const WebhookEndpointDisabledData = z
  .object({
    endpoint_url: z.string().trim().min(1).max(2048),
    /** The first failure of the streak (ISO 8601 instant). */
    failing_since: z.iso.datetime({ offset: true }),
    /** What the last attempt got: a status, or why there was no response. */
    last_failure: z.string().trim().max(300).nullish(),
    /** The back-office page of the org's webhooks (or its API reference). */
    settings_url: Url.nullish(),
  })
  .strict();

/** An invitation to join an org's back-office (lib/platform/orgs/invitations.ts); the comptable's among them. */
export const OrgInvitationData = z
  .object({
    org_name: z.string().trim().min(1).max(200),
    /** Who invited, as the back-office names them (their name, or their e-mail). */
    inviter: z.string().trim().min(1).max(200),
    role: z.enum(['owner', 'admin', 'member', 'accountant']),
    /** The link that accepts it (it carries the invitation's secret). */
    accept_url: Url,
    /** When the link stops working (ISO 8601 instant). */
    expires_at: z.iso.datetime({ offset: true }),
  })
  .strict();

export type DocumentSentInput = z.input<typeof DocumentSentData>;
export type PaymentReminderInput = z.input<typeof PaymentReminderData>;
export type QuoteExpiryReminderInput = z.input<typeof QuoteExpiryReminderData>;
export type AccountLockedInput = z.input<typeof AccountLockedData>;

/**
 * The tone of a payment-ladder step: gentle up to the due date, firm after it, final for the last step of
 * the ladder once the invoice is overdue.
 */
export function reminderTone(daysFromDueDate: number, isLastStep: boolean): ReminderTone {
  if (daysFromDueDate <= 0) return 'gentle';
  return isLastStep ? 'final' : 'firm';
}
