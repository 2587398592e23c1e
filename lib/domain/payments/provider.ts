/**
 * The payment provider as Paraphe needs it (DESIGN §8): each org's own connected account, its readiness,
 * onboarding links, customers and hosted checkout sessions, every call made on the org's account. Stripe is the
 * one implementation (stripe-provider.ts); the rest of the module only sees this port.
 */

/** A capability's state on the provider: only `active` lets the account take that method. */
export type CapabilityStatus = 'active' | 'inactive' | 'pending' | 'unrequested';

/** What the org's account can do now. */
export interface AccountReadiness {
  account_id: string;
  /** The account may take payments (direct charges). */
  charges_enabled: boolean;
  /** Onboarding was completed once (the provider may still ask for more). */
  details_submitted: boolean;
  card_payments: CapabilityStatus;
  sepa_debit_payments: CapabilityStatus;
  /** Requirements the provider needs now (its field names, e.g. `external_account`); empty when none. */
  requirements_due: string[];
}

/** A new connected account for an org (Settings → Paiements), to be onboarded through an account link. */
export interface AccountInput {
  email?: string | null;
  business_name?: string | null;
  /** Our references (the org), kept on the account. */
  metadata: Record<string, string>;
  idempotency_key?: string;
}

export interface AccountLink {
  url: string;
  expires_at: Date;
}

export type CheckoutMethod = 'card' | 'sepa_debit';

/** A hosted checkout for a payment (mode `payment`) of an amount in euro cents. */
export interface PaymentCheckoutInput {
  mode: 'payment';
  amount: number;
  /** The line the payer sees, e.g. "Facture F-2026-00012". */
  description: string;
  methods: CheckoutMethod[];
  success_url: string;
  cancel_url: string;
  customer_email?: string | null;
  customer_id?: string | null;
  /** Our references, returned on the session and its payment (org, document). */
  metadata: Record<string, string>;
  idempotency_key?: string;
}

/** A hosted checkout that only collects a SEPA mandate for later off-session debits (mode `setup`). */
export interface SetupCheckoutInput {
  mode: 'setup';
  customer_id: string;
  methods: ['sepa_debit'];
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  idempotency_key?: string;
}

export type CheckoutInput = PaymentCheckoutInput | SetupCheckoutInput;

export interface CheckoutSession {
  id: string;
  mode: 'payment' | 'setup';
  /** The hosted page to redirect the payer to; null once the session is complete or expired. */
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total: number | null;
  payment_intent_id: string | null;
  setup_intent_id: string | null;
  customer_id: string | null;
  metadata: Record<string, string>;
}

export interface CustomerInput {
  email?: string | null;
  name?: string | null;
  metadata: Record<string, string>;
  idempotency_key?: string;
}

/** What a completed SEPA setup produced: who set it up (our metadata), the payment method and the mandate. */
export interface SetupIntentInfo {
  id: string;
  status: string;
  customer_id: string | null;
  payment_method_id: string | null;
  mandate_id: string | null;
  metadata: Record<string, string>;
}

export interface PaymentMethodInfo {
  id: string;
  type: string;
  customer_id: string | null;
  /** Last four digits of the IBAN of a SEPA debit method; null for another type. */
  sepa_last4: string | null;
}

/** A mandate as the provider states it: only `active` lets us debit. */
export type MandateState = 'active' | 'inactive' | 'pending';

export interface MandateInfo {
  id: string;
  status: MandateState;
  payment_method_id: string | null;
}

/** An off-session SEPA debit on a stored mandate, confirmed at once, in euro cents. */
export interface OffSessionDebitInput {
  customer_id: string;
  payment_method_id: string;
  mandate_id: string | null;
  amount: number;
  description: string;
  metadata: Record<string, string>;
  /** Deterministic per (document, attempt): a replay makes no second debit. */
  idempotency_key: string;
}

export interface PaymentIntentInfo {
  id: string;
  status: string;
  amount: number;
  failure_message: string | null;
}

/** A refund of `amount` cents of a settled payment intent, back to the payer's card or account. */
export interface RefundCreateInput {
  payment_intent_id: string;
  amount: number;
  /** Our references (org, document, online refund), returned on the refund and its events. */
  metadata: Record<string, string>;
  /** Deterministic per online refund: a retry asks the provider once. */
  idempotency_key: string;
}

export type ProviderRefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

export interface RefundInfo {
  id: string;
  status: ProviderRefundStatus;
  amount: number;
  payment_intent_id: string | null;
  /** Why it failed (lost_or_stolen_card, expired_or_canceled_card, unknown); null otherwise. */
  failure_reason: string | null;
  metadata: Record<string, string>;
}

export interface PaymentProvider {
  readonly name: 'stripe';
  retrieveAccount(accountId: string): Promise<AccountReadiness>;
  /** Creates a connected account on the platform (country FR, euro); the org completes it through onboarding. */
  createAccount(input: AccountInput): Promise<AccountReadiness>;
  /** A single-use, short-lived onboarding link (regenerate it when the user comes back through `refresh_url`). */
  createAccountLink(accountId: string, urls: { refresh_url: string; return_url: string }): Promise<AccountLink>;
  createCustomer(accountId: string, input: CustomerInput): Promise<{ id: string }>;
  createCheckoutSession(accountId: string, input: CheckoutInput): Promise<CheckoutSession>;
  retrieveCheckoutSession(accountId: string, sessionId: string): Promise<CheckoutSession>;
  retrieveSetupIntent(accountId: string, setupIntentId: string): Promise<SetupIntentInfo>;
  retrievePaymentMethod(accountId: string, paymentMethodId: string): Promise<PaymentMethodInfo>;
  retrieveMandate(accountId: string, mandateId: string): Promise<MandateInfo>;
  /** Detaches the method from its customer (the mandate can no longer be used); false when the provider no longer knows it. */
  detachPaymentMethod(accountId: string, paymentMethodId: string): Promise<boolean>;
  createOffSessionDebit(accountId: string, input: OffSessionDebitInput): Promise<PaymentIntentInfo>;
  /** Refunds part or all of a settled payment; its outcome may come later (refund.updated). */
  createRefund(accountId: string, input: RefundCreateInput): Promise<RefundInfo>;
}
