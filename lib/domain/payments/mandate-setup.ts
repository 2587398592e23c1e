import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { paymentCustomers } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import { displayName } from '@/lib/domain/contacts';
import { type ContactRow, loadContactRow, loadDocument } from '@/lib/domain/documents';
import { ApiError, conflict } from '@/lib/platform/errors';
import { requireAccount } from './connect-account';
import type { PaymentProvider } from './provider';
import { requireProvider } from './stripe-provider';

export interface MandateSetup {
  setup_url: string;
}

/** The public page the setup Checkout returns to (`/pay/mandate?status=success|cancel`), in the contact's language. */
export function mandateReturnUrl(status: 'success' | 'cancel', language: ContactRow['preferred_language']): string {
  return `${appBaseUrl()}/pay/mandate?status=${status}${language === 'en' ? '&lang=en' : ''}`;
}

/**
 * The contact's customer on the org's account, created on first use. The idempotency key names the account and the
 * contact: two setups racing make one customer at the provider, and the second insert keeps the first row.
 */
async function customerOf(db: Db, provider: PaymentProvider, orgId: string, accountId: string, contact: ContactRow): Promise<string> {
  const where = and(eq(paymentCustomers.org_id, orgId), eq(paymentCustomers.contact_id, contact.id));
  const [known] = await db.select().from(paymentCustomers).where(where);
  if (known) return known.customer_id;
  const customer = await provider.createCustomer(accountId, {
    email: contact.email,
    name: displayName(contact),
    metadata: { org_id: orgId, contact_id: contact.id },
    idempotency_key: `customer:${accountId}:${contact.id}`,
  });
  await db.insert(paymentCustomers).values({ org_id: orgId, contact_id: contact.id, customer_id: customer.id }).onConflictDoNothing();
  const [row] = await db.select().from(paymentCustomers).where(where);
  return row?.customer_id ?? customer.id;
}

/**
 * POST /v1/invoices/{id}/sepa-mandate-setup: a setup-mode Checkout (SEPA debit only, euro) on the org's account for
 * the document's buyer contact, whose URL the payer opens to sign the mandate; the mandate itself is recorded from
 * the provider's events (mandates.ts). Checked in the spec's order: provider configured (503 payments_disabled),
 * connected account (409 payments_account_required), the document (404). A document always has a contact; one that
 * was deleted or erased (GDPR) since cannot sign a mandate (409 contact_deleted / contact_erased).
 */
export async function setupMandate(db: Db, orgId: string, documentId: string): Promise<MandateSetup> {
  const provider = requireProvider();
  const account = await requireAccount(db, orgId);
  const doc = await loadDocument(db, orgId, documentId);
  const contact = await loadContactRow(db, orgId, doc.contact_id);
  if (!contact || contact.erased_at) throw conflict('contact_erased', 'The client of this document was erased; no mandate can be set up for it.');
  if (contact.deleted_at) throw conflict('contact_deleted', 'The client of this document is deleted; restore it before setting up a mandate.');
  const customerId = await customerOf(db, provider, orgId, account.account_id, contact);
  const session = await provider.createCheckoutSession(account.account_id, {
    mode: 'setup',
    customer_id: customerId,
    methods: ['sepa_debit'],
    success_url: mandateReturnUrl('success', contact.preferred_language),
    cancel_url: mandateReturnUrl('cancel', contact.preferred_language),
    metadata: { org_id: orgId, contact_id: contact.id, document_id: doc.id },
  });
  if (!session.url) throw new ApiError(502, 'payments_provider_error', 'The payment provider returned no page for the mandate setup.');
  return { setup_url: session.url };
}
