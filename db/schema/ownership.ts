/**
 * The one unit that owns each table of db/schema, by SQL table name: only that unit inserts, updates or deletes the
 * table's rows; any other unit reads it or asks the owner through a function of its index (issue 32).
 * `npm run check:tables` (scripts/check-table-writes.mjs) refuses a write by another unit, a table missing here and
 * an entry that is no table. pg-boss's own schema (`pgboss.*`) is the queue's and not listed. Plain data, read as
 * text by the check: keep one `table: 'unit',` per line.
 */
export const tableOwners = {
  // The tenant, its staff and their memberships (lib/platform/orgs); API keys are issued and revoked by lib/platform/auth.
  orgs: 'platform/orgs',
  users: 'platform/orgs',
  memberships: 'platform/orgs',
  org_invitations: 'platform/orgs',
  api_keys: 'platform/auth',

  // The event outbox (lib/platform/events: recordEvent).
  events: 'platform/events',

  // Idempotency-Key records and the rate limiters' store (rate-limiter-flexible, also used by platform/auth's throttle).
  idempotency_keys: 'platform/http',
  rate_limits: 'platform/http',

  // E-mails, their pending attachments, the provider's webhook deliveries already applied.
  emails: 'platform/email',
  email_attachments: 'platform/email',
  email_webhook_events: 'platform/email',

  // Billing documents, their lines, deposit deductions, numbering and the hash chain.
  documents: 'domain/documents',
  document_items: 'domain/documents',
  deposit_deductions: 'domain/documents',
  number_counters: 'domain/documents',
  hash_chains: 'domain/documents',

  // Contacts and their consent history.
  contacts: 'domain/contacts',
  contact_consents: 'domain/contacts',

  // Payments recorded against a document, and online payment: connected accounts, links, attempts, SEPA mandates.
  payments: 'domain/payments',
  payment_accounts: 'domain/payments',
  payment_links: 'domain/payments',
  online_payments: 'domain/payments',
  online_refunds: 'domain/payments',
  provider_events: 'domain/payments',
  payment_customers: 'domain/payments',
  sepa_mandates: 'domain/payments',

  // An org's invoicing defaults, legal mentions, reminder ladders and PA configuration.
  invoice_settings: 'domain/invoice-settings',

  // The product catalogue.
  products: 'domain/products',

  // The accountant's export settings (FEC accounts).
  export_settings: 'domain/exports',

  // The stored PDF rendition of a finalized document.
  document_renders: 'domain/pdf',

  // Reminders; reminder_ladders is kept by reminders' triggers (migration 0011), never by code.
  reminders: 'domain/reminders',
  reminder_ladders: 'domain/reminders',

  // E-invoicing through a PA: enrollment, transmissions, lifecycle log, received invoices, polling cursors, document states.
  einvoicing_enrollments: 'domain/einvoicing',
  einvoicing_transmissions: 'domain/einvoicing',
  einvoicing_lifecycle_events: 'domain/einvoicing',
  inbound_invoices: 'domain/einvoicing',
  einvoicing_poll_cursors: 'domain/einvoicing',
  einvoicing_document_states: 'domain/einvoicing',

  // Recurring invoice templates and their generations.
  recurring_templates: 'domain/recurring',
  recurring_generations: 'domain/recurring',

  // Electronic signature; signature_dead_tokens is written by a trigger on signature_signers (migration 0027),
  // signature_deleted_forms by one on signature_forms (migration 0032).
  signature_documents: 'domain/signature',
  signature_templates: 'domain/signature',
  signature_forms: 'domain/signature',
  signature_bulk_batches: 'domain/signature',
  signature_envelopes: 'domain/signature',
  signature_envelope_documents: 'domain/signature',
  signature_signers: 'domain/signature',
  signature_approvers: 'domain/signature',
  signature_fields: 'domain/signature',
  signature_requested_documents: 'domain/signature',
  signature_uploads: 'domain/signature',
  signature_otp_codes: 'domain/signature',
  signature_form_submissions: 'domain/signature',
  signature_audit_events: 'domain/signature',
  signature_dead_tokens: 'domain/signature',
  signature_deleted_forms: 'domain/signature',

  // Text messages.
  sms_messages: 'domain/sms',

  // Outbound webhook endpoints and their deliveries.
  webhook_endpoints: 'domain/webhooks',
  webhook_deliveries: 'domain/webhooks',
} as const satisfies Record<string, `platform/${string}` | `domain/${string}`>;

export type OwnedTable = keyof typeof tableOwners;
