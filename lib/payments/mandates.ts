import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, sepaMandates } from '@/db/schema';
import { type Conn, loadDocument } from '@/lib/documents';
import { loadPaymentAccount } from './connect-account';
import type { MandateState } from './provider';
import { paymentProvider, requireProvider } from './stripe-provider';

/*
 * SEPA direct-debit mandates of buyer contacts (DESIGN §8): one live (pending or active) per contact, set up through a
 * setup-mode Checkout (mandate-setup.ts), kept current by the provider's events, revoked by staff or the API.
 * Provider ids (customer, payment method, mandate) stay in the database: no function here returns them.
 */

export type SepaMandateRow = typeof sepaMandates.$inferSelect;

/** The spec's "SEPA mandate status" of an invoice's buyer contact. */
export interface SepaMandateStatus {
  active: boolean;
  status: 'active' | null;
}

/** What staff see of a contact's mandate (the back-office's client page). */
export interface ContactMandate {
  /** pending: the bank has not confirmed it yet; inactive: the provider ended it; revoked: ended here. */
  status: SepaMandateRow['status'];
  /** Only an active mandate can be debited. */
  active: boolean;
  /** Last four digits of the payer's IBAN. */
  iban_last4: string | null;
  created_at: string;
  revoked_at: string | null;
}

const LIVE = ['pending', 'active'] as const;

const NONE: SepaMandateStatus = { active: false, status: null };

export const mandateStatusOf = (row: Pick<SepaMandateRow, 'status'> | null | undefined): SepaMandateStatus =>
  row?.status === 'active' ? { active: true, status: 'active' } : NONE;

/** The contact's live mandate (pending or active), if any. */
export async function liveMandate(conn: Conn, orgId: string, contactId: string): Promise<SepaMandateRow | null> {
  const [row] = await conn
    .select()
    .from(sepaMandates)
    .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.contact_id, contactId), inArray(sepaMandates.status, [...LIVE])));
  return row ?? null;
}

/** The contact's latest mandate, whatever its state, for staff; null when it never had one. */
export async function mandateOfContact(conn: Conn, orgId: string, contactId: string): Promise<ContactMandate | null> {
  const [row] = await conn
    .select()
    .from(sepaMandates)
    .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.contact_id, contactId)))
    .orderBy(desc(sepaMandates.created_at), desc(sepaMandates.id))
    .limit(1);
  if (!row) return null;
  return {
    status: row.status,
    active: row.status === 'active',
    iban_last4: row.iban_last4,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** GET /v1/invoices/{id}/sepa-mandate: the mandate of the document's buyer contact (404 for another org's document). */
export async function invoiceMandateStatus(db: Db, orgId: string, documentId: string): Promise<SepaMandateStatus> {
  const doc = await loadDocument(db, orgId, documentId);
  return mandateStatusOf(await liveMandate(db, orgId, doc.contact_id));
}

/**
 * Revokes the contact's live mandate: its payment method is detached at the provider first (the mandate can no longer
 * be debited there; one the provider no longer knows is fine), then the row is marked revoked. Idempotent: without a
 * live mandate nothing is called. An org that disconnected its account since cannot reach the method any more: the
 * row is revoked here only (the org's own dashboard holds the rest). Without STRIPE_SECRET_KEY, 503 payments_disabled.
 */
export async function revokeMandate(db: Db, orgId: string, contactId: string, at = new Date()): Promise<SepaMandateStatus> {
  const live = await liveMandate(db, orgId, contactId);
  if (!live) return NONE;
  const provider = requireProvider();
  const account = await loadPaymentAccount(db, orgId);
  if (account) await provider.detachPaymentMethod(account.account_id, live.payment_method_id);
  await db
    .update(sepaMandates)
    .set({ status: 'revoked', revoked_at: at, updated_at: at })
    .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.id, live.id), inArray(sepaMandates.status, [...LIVE])));
  return NONE;
}

/** DELETE /v1/invoices/{id}/sepa-mandate: revokes the mandate of the document's buyer contact. */
export async function revokeInvoiceMandate(db: Db, orgId: string, documentId: string): Promise<SepaMandateStatus> {
  const doc = await loadDocument(db, orgId, documentId);
  return revokeMandate(db, orgId, doc.contact_id);
}

/**
 * A completed mandate setup (`setup_intent.succeeded`, or `checkout.session.completed` in setup mode): the setup
 * intent is read again from the provider with its payment method (the IBAN's last four) and mandate (its state now,
 * so an earlier `mandate.updated` is not lost), then recorded as the contact's mandate; a previous live one becomes
 * inactive. Only setups we opened for this org count (metadata org_id, contact_id of one of its contacts).
 * Replays and a second event for the same setup change nothing.
 */
export async function recordMandateSetup(db: Db, orgId: string, accountId: string, setupIntentId: string): Promise<SepaMandateRow | null> {
  const provider = paymentProvider();
  if (!provider) return null;
  const si = await provider.retrieveSetupIntent(accountId, setupIntentId);
  const contactId = si.metadata.contact_id;
  if (si.status !== 'succeeded' || si.metadata.org_id !== orgId || !contactId || !si.payment_method_id || !si.customer_id) return null;
  const method = await provider.retrievePaymentMethod(accountId, si.payment_method_id);
  const mandate = si.mandate_id ? await provider.retrieveMandate(accountId, si.mandate_id) : null;
  const status: MandateState = mandate?.status ?? 'pending';
  return db.transaction(async (tx) => {
    // The contact's row serialises two events of the same setup (or two setups of one contact).
    const [contact] = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.org_id, orgId), eq(contacts.id, contactId)))
      .for('update');
    if (!contact) return null;
    if (si.mandate_id) {
      const [known] = await tx.select().from(sepaMandates).where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.mandate_id, si.mandate_id)));
      if (known) return known;
    }
    const now = new Date();
    if (status !== 'inactive') {
      await tx
        .update(sepaMandates)
        .set({ status: 'inactive', updated_at: now })
        .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.contact_id, contactId), inArray(sepaMandates.status, [...LIVE])));
    }
    const [row] = await tx
      .insert(sepaMandates)
      .values({
        org_id: orgId,
        contact_id: contactId,
        customer_id: si.customer_id!,
        payment_method_id: si.payment_method_id!,
        mandate_id: si.mandate_id,
        status,
        iban_last4: method.sepa_last4,
      })
      .returning();
    return row ?? null;
  });
}

/**
 * `mandate.updated`: the mandate's state follows the provider's, forward only — pending → active or inactive,
 * active → inactive; an inactive or revoked mandate stays so (an older event delivered late changes nothing).
 * A mandate we do not know yet is left to its setup's event, which reads the state afresh.
 */
export async function updateMandateStatus(db: Db, orgId: string, mandateId: string, providerStatus: string): Promise<SepaMandateRow | null> {
  const status: MandateState = providerStatus === 'active' ? 'active' : providerStatus === 'pending' ? 'pending' : 'inactive';
  const from: SepaMandateRow['status'][] = status === 'active' ? ['pending'] : status === 'inactive' ? ['pending', 'active'] : [];
  if (!from.length) return null;
  const [row] = await db
    .update(sepaMandates)
    .set({ status, updated_at: new Date() })
    .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.mandate_id, mandateId), inArray(sepaMandates.status, from)))
    .returning();
  return row ?? null;
}
