import { sepaMandates } from '@/db/schema';
import { BillingDocument } from '@/lib/domain/documents';
import { defineModule } from '@/lib/platform/manifest';
import { revokeContactMandatesJob, revokeOnContactGone } from './contact-mandates';
import { paymentOperations } from './operations';
import { emailsOnPaymentRecorded, paymentEmailsJob } from './payment-emails';
import { OnlinePayment, Payment } from './schemas';

/** Payments recorded against an invoice or a deposit invoice and the status they give it; online payment (DESIGN §8). */
export const manifest = defineModule({
  name: 'payments',
  operations: paymentOperations,
  jobs: [revokeContactMandatesJob, paymentEmailsJob],
  // The contact's SEPA mandates in its GDPR export (what they look like to staff, never the provider's ids); a merge
  // does not move them: contact.merged revokes the merged-away contact's live one (contact-mandates.ts).
  contactReferences: [
    {
      resource: 'sepa_mandates',
      table: sepaMandates,
      column: sepaMandates.contact_id,
      exportColumns: {
        id: sepaMandates.id,
        status: sepaMandates.status,
        iban_last4: sepaMandates.iban_last4,
        created_at: sepaMandates.created_at,
        revoked_at: sepaMandates.revoked_at,
      },
      merge: false,
    },
  ],
  // Its own payment.recorded too: a settled online payment's receipt and notice (payment-emails.ts).
  subscriptions: [revokeOnContactGone, emailsOnPaymentRecorded],
  events: {
    'invoice.paid': BillingDocument,
    'payment.recorded': Payment,
    'payment.deleted': Payment,
    'payment.failed': OnlinePayment,
    'payment.refunded': Payment,
  },
});

export { canTakePayments } from './can-take-payments';
export { chargeMandate } from './charge-mandate';
export { connectAccount, paymentAccountState, type PaymentAccountState } from './connect-account';
export { getSepaMandateOperation, revokeSepaMandateOperation, setupSepaMandateOperation } from './mandate-operations';
export { type MandateSetup, setupMandate } from './mandate-setup';
export {
  type ContactMandate,
  invoiceMandateStatus,
  mandateOfContact,
  recordMandateSetup,
  revokeInvoiceMandate,
  revokeMandate,
  type SepaMandateStatus,
  updateMandateStatus,
} from './mandates';
export { createPaymentLinkOperation, paymentOperations, sendForPaymentOperation } from './operations';
export { onlinePaymentsOfDocument } from './online-payments';
export { disconnectAccount, ONBOARDING_PATH, onboardingUrls, refreshAccount, SETTINGS_PATH, startOnboarding } from './onboarding';
export { createPaymentLink, onlinePaymentRefusal } from './payment-links';
export { paymentLinkOf } from './payment-link-of';
export { applyPayment, type PaymentEntry, recordPayment } from './payments';
export { queuePaymentEmails } from './payment-emails';
export { HANDLERS, type Handler, handleStripeWebhook, type ProviderEventContext } from './provider-events';
export type { AccountReadiness, PaymentProvider } from './provider';
export type { OnlinePayment } from './schemas';
export { previewSendForPayment, type SendForPaymentOptions, sendForPayment } from './send-for-payment';
export { paymentProvider } from './stripe-provider';
export { deletePayment, listPayments, recentPaymentsOfContact } from './payments';
export { recordRefund, refundableAmount } from './refunds';
export { createOnlineRefund, listOnlineRefunds, type RefundState, refundState } from './online-refunds';
export { OnlineRefund, OnlineRefundInput, Payment, PaymentInput, RefundInput } from './schemas';
export { openPayCheckout, PayCheckoutForm, payPageUrl } from './pay-checkout';
export type { BankTransfer } from './bank-transfer';
export { loadPayPage, payLanguage, type PayLine, payLinkTarget, type PayPage, type PaySeller, type ReturnNotice, returnNotice } from './pay-page';
export { PAY_TEXTS, type PayTexts } from './pay-texts';
export { MANDATE_TEXTS, mandatePageStatus } from './mandate-page-texts';
export { createOnlineRefundOperation, listOnlineRefundsOperation, recordRefundOperation } from './operations';
export { deletePaymentOperation, listPaymentsOperation, recordPaymentOperation } from './operations';
