import { render, toPlainText } from '@react-email/render';
import type { z } from 'zod';
import type { EmailTemplate } from '@/db/schema';
import { fromZodError } from '@/lib/platform/errors';
import { accountLocked } from './account-locked';
import { AccountLockedData, DocumentSentData, OrgInvitationData, PaymentReminderData, QuoteExpiryReminderData, WebhookEndpointDisabledData } from './data';
import { orgInvitation } from './org-invitation';
import { documentSent } from './document-sent';
import type { Language } from './nouns';
import { PaymentReceiptData, PaymentReceivedData } from './payment-data';
import { paymentReceipt, paymentReceived } from './payment-received';
import { paymentReminder } from './payment-reminder';
import { quoteExpiryReminder } from './quote-expiry-reminder';
import { SignatureApprovalRequestedData, SignatureExpiredData, SignatureRequestData } from './signature-data';
import { signatureApprovalRequested, signatureExpired, signatureReminder, signatureRequest } from './signature-lifecycle';
import { SignatureCompletedData, signatureCompleted } from './signature-completed';
import { SignatureSealFailedData, signatureSealFailed } from './signature-seal-failed';
import { SignatureCodeData, SignatureDeclinedData, signatureCode, signatureDeclined } from './signature-signer';
import type { RenderedTemplate } from './types';
import { webhookEndpointDisabled } from './webhook-endpoint-disabled';

/** Each template: the zod schema of its data and the function that writes it in a language. */
const TEMPLATES = {
  document_sent: { schema: DocumentSentData, build: documentSent },
  payment_reminder: { schema: PaymentReminderData, build: paymentReminder },
  quote_expiry_reminder: { schema: QuoteExpiryReminderData, build: quoteExpiryReminder },
  account_locked: { schema: AccountLockedData, build: accountLocked },
  webhook_endpoint_disabled: { schema: WebhookEndpointDisabledData, build: webhookEndpointDisabled },
  signature_request: { schema: SignatureRequestData, build: signatureRequest },
  signature_reminder: { schema: SignatureRequestData, build: signatureReminder },
  signature_expired: { schema: SignatureExpiredData, build: signatureExpired },
  signature_approval_requested: { schema: SignatureApprovalRequestedData, build: signatureApprovalRequested },
  signature_code: { schema: SignatureCodeData, build: signatureCode },
  signature_declined: { schema: SignatureDeclinedData, build: signatureDeclined },
  signature_completed: { schema: SignatureCompletedData, build: signatureCompleted },
  signature_seal_failed: { schema: SignatureSealFailedData, build: signatureSealFailed },
  payment_receipt: { schema: PaymentReceiptData, build: paymentReceipt },
  payment_received: { schema: PaymentReceivedData, build: paymentReceived },
  org_invitation: { schema: OrgInvitationData, build: orgInvitation },
} satisfies Record<EmailTemplate, { schema: z.ZodType; build: (data: never, lang: Language) => RenderedTemplate }>;

/** The data a caller passes for each template (zod input: optional fields may be left out). */
export type TemplateData = { [K in EmailTemplate]: z.input<(typeof TEMPLATES)[K]['schema']> };

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** The data as validated (defaults applied): what the record keeps. */
  data: unknown;
}

/**
 * Validates the template's data (a 422 naming `data.<field>` otherwise) and renders the e-mail: its subject,
 * the HTML the recipient sees and the plain-text alternative derived from the same HTML.
 */
export async function renderEmail<K extends EmailTemplate>(template: K, data: TemplateData[K], language: Language): Promise<RenderedEmail> {
  const { schema, build } = TEMPLATES[template];
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw fromZodError(parsed.error, 'data');
  const { subject, element } = (build as (d: unknown, l: Language) => RenderedTemplate)(parsed.data, language);
  const html = await render(element);
  return { subject, html, text: toPlainText(html), data: parsed.data };
}

export { REMINDER_TONES, type ReminderTone, reminderTone } from './data';
export type { Language } from './nouns';
