import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, sepaMandates } from '@/db/schema';
import { type Conn, loadDocument } from '@/lib/domain/documents';
import { loadPaymentAccount } from './connect-account';
import type { MandateState, PaymentProvider } from './provider';
import { requireProvider } from './stripe-provider';

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
  /** pending: the bank has not confirmed it yet; inactive: ended by the provider, or replaced by a newer one; revoked: ended here. */
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

/** The setup intent of an event, as much of it as the mandate needs (ids may be expanded objects). */
interface SetupIntentObject {
  id: string;
  status: string;
  customer: string | { id: string } | null;
  payment_method: string | { id: string } | null;
  mandate: string | { id: string } | null;
  metadata: Record<string, string> | null;
}

/** What a provider event's handler is given (provider-events.ts' context, structurally). */
export interface MandateEventContext {
  tx: Conn;
  orgId: string;
  accountId: string;
  event: { data: { object: unknown } };
  provider: () => PaymentProvider;
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

/**
 * A completed mandate setup: its payment method (the IBAN's last four) and mandate (its state now, so a
 * `mandate.updated` that came first is not lost) are read from the provider, then recorded as the contact's mandate;
 * a previous live one becomes inactive. Only setups we opened for this org count (metadata org_id, contact_id of one
 * of its contacts). A second event of the same setup (both events below arrive) changes nothing. Runs in the
 * caller's transaction (the provider event's).
 */
export async function recordMandateSetup(conn: Conn, orgId: string, accountId: string, si: SetupIntentObject, provider: PaymentProvider): Promise<SepaMandateRow | null> {
  const contactId = si.metadata?.contact_id;
  const customerId = idOf(si.customer);
  const methodId = idOf(si.payment_method);
  const mandateId = idOf(si.mandate);
  if (si.status !== 'succeeded' || si.metadata?.org_id !== orgId || !contactId || !customerId || !methodId) return null;
  // The contact's row serialises two events of one setup, or two setups of one contact.
  const [contact] = await conn
    .select({ id: contacts.id, deleted_at: contacts.deleted_at })
    .from(contacts)
    .where(and(eq(contacts.org_id, orgId), eq(contacts.id, contactId)))
    .for('update');
  if (!contact) return null;
  if (contact.deleted_at) {
    // Signed on a page opened before the contact was deleted, merged or erased: not kept, and not debitable there.
    await provider.detachPaymentMethod(accountId, methodId);
    return null;
  }
  if (mandateId) {
    const [known] = await conn.select().from(sepaMandates).where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.mandate_id, mandateId)));
    if (known) return known;
  }
  const method = await provider.retrievePaymentMethod(accountId, methodId);
  const status: MandateState = mandateId ? (await provider.retrieveMandate(accountId, mandateId)).status : 'pending';
  const now = new Date();
  if (status !== 'inactive') {
    await conn
      .update(sepaMandates)
      .set({ status: 'inactive', updated_at: now })
      .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.contact_id, contactId), inArray(sepaMandates.status, [...LIVE])));
  }
  const [row] = await conn
    .insert(sepaMandates)
    .values({ org_id: orgId, contact_id: contactId, customer_id: customerId, payment_method_id: methodId, mandate_id: mandateId, status, iban_last4: method.sepa_last4 })
    .returning();
  return row ?? null;
}

/**
 * `mandate.updated`: the mandate's state follows the provider's, forward only — pending → active or inactive,
 * active → inactive; an inactive or revoked mandate stays so (an older event delivered late changes nothing).
 * A mandate we do not know yet is left to its setup's event, which reads the state afresh.
 */
export async function updateMandateStatus(conn: Conn, orgId: string, mandateId: string, providerStatus: string): Promise<SepaMandateRow | null> {
  const status: MandateState = providerStatus === 'active' ? 'active' : providerStatus === 'pending' ? 'pending' : 'inactive';
  const from: SepaMandateRow['status'][] = status === 'active' ? ['pending'] : status === 'inactive' ? ['pending', 'active'] : [];
  if (!from.length) return null;
  const [row] = await conn
    .update(sepaMandates)
    .set({ status, updated_at: new Date() })
    .where(and(eq(sepaMandates.org_id, orgId), eq(sepaMandates.mandate_id, mandateId), inArray(sepaMandates.status, from)))
    .returning();
  return row ?? null;
}

/** `setup_intent.succeeded`: the intent's mandate becomes the contact's (provider-events.ts' HANDLERS). */
export async function onSetupIntentSucceeded(ctx: MandateEventContext): Promise<void> {
  await recordMandateSetup(ctx.tx, ctx.orgId, ctx.accountId, ctx.event.data.object as SetupIntentObject, ctx.provider());
}

/** `checkout.session.completed` of a setup-mode session: the same, from the session's setup intent (whichever comes first). */
export async function onSetupSessionCompleted(ctx: MandateEventContext): Promise<void> {
  const session = ctx.event.data.object as { setup_intent: string | { id: string } | null };
  const setupIntentId = idOf(session.setup_intent);
  if (!setupIntentId) return;
  const provider = ctx.provider();
  const si = await provider.retrieveSetupIntent(ctx.accountId, setupIntentId);
  await recordMandateSetup(
    ctx.tx,
    ctx.orgId,
    ctx.accountId,
    { id: si.id, status: si.status, customer: si.customer_id, payment_method: si.payment_method_id, mandate: si.mandate_id, metadata: si.metadata },
    provider,
  );
}

/** `mandate.updated` (provider-events.ts' HANDLERS). */
export async function onMandateUpdated(ctx: MandateEventContext): Promise<void> {
  const mandate = ctx.event.data.object as { id: string; status: string };
  await updateMandateStatus(ctx.tx, ctx.orgId, mandate.id, mandate.status);
}
