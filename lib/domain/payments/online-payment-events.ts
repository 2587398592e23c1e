import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Tx } from '@/db/client';
import { type ONLINE_PAYMENT_STATUSES, onlinePayments } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { type FullDocumentRow, loadDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { recordEvent } from '@/lib/platform/events';
import { loadPaymentAccount, saveReadiness } from './connect-account';
import { type OnlinePaymentRow, toPublicOnlinePayment } from './online-payments';
import { applyPayment } from './payments';
import { syncProviderRefund } from './online-refunds';
import { applyProviderRefund } from './refunds';
import type { ProviderEventContext } from './provider-events';
import { toReadiness, toRefundInfo } from './stripe-provider';

/*
 * What the provider's events do to online payments (DESIGN §8). The event's own object is used; the provider is not
 * called. A row moves forward only; settling records the money through the same service as a manual payment.
 */

type Status = (typeof ONLINE_PAYMENT_STATUSES)[number];
type Method = NonNullable<OnlinePaymentRow['method']>;

/**
 * The statuses each status may be reached from. Money that arrived is recorded whatever came before (a card
 * declined then paid on the same session, an event delivered late); nothing leaves succeeded, so an out-of-order
 * `processing` or failure after it changes nothing.
 */
const REACHABLE_FROM: Record<Exclude<Status, 'open'>, Status[]> = {
  processing: ['open'],
  succeeded: ['open', 'processing', 'failed', 'expired', 'canceled'],
  failed: ['open', 'processing'],
  expired: ['open'],
  canceled: ['open'],
};

/** A dispute's final statuses: a late `created` or `updated` does not reopen it. */
const DISPUTE_CLOSED = ['won', 'lost', 'warning_closed'];

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);
const isMethod = (v: unknown): v is Method => v === 'card' || v === 'sepa_debit';
const one = (types: string[] | null | undefined) => (types?.length === 1 && isMethod(types[0]) ? types[0] : null);

interface Keys {
  session?: string | null;
  intent?: string | null;
  metadata?: Stripe.Metadata | null;
}

interface Locked {
  row: OnlinePaymentRow;
  doc: FullDocumentRow;
}

/**
 * The org's online payment an event is about: by Checkout Session, else by payment intent, else by our id in the
 * metadata; the document locked (as a manual payment does), then the row. null when it is not one of ours. An event
 * that names one of this org's payments we do not hold yet (its row is being written) is refused for a retry.
 */
async function lockPayment(ctx: ProviderEventContext, keys: Keys): Promise<Locked | null> {
  const { tx, orgId } = ctx;
  const ours = keys.metadata?.online_payment_id;
  const conditions = [
    keys.session ? eq(onlinePayments.checkout_session_id, keys.session) : null,
    keys.intent ? eq(onlinePayments.provider_payment_id, keys.intent) : null,
    ours && z.uuid().safeParse(ours).success ? eq(onlinePayments.id, ours) : null,
  ];
  let found: OnlinePaymentRow | undefined;
  for (const condition of conditions) {
    if (!condition || found) continue;
    [found] = await tx.select().from(onlinePayments).where(and(eq(onlinePayments.org_id, orgId), condition));
  }
  if (!found) {
    if (keys.metadata?.org_id === orgId && (ours || keys.metadata?.document_id)) {
      throw new ApiError(503, 'payment_not_yet_known', 'This online payment is not recorded yet: retry later.');
    }
    return null;
  }
  const doc = await loadDocument(tx, orgId, found.document_id, true);
  const [row] = await tx.select().from(onlinePayments).where(eq(onlinePayments.id, found.id)).for('update');
  return { row: row!, doc };
}

async function update(tx: Tx, row: OnlinePaymentRow, set: Partial<OnlinePaymentRow>): Promise<OnlinePaymentRow> {
  const [updated] = await tx
    .update(onlinePayments)
    .set({ ...set, updated_at: sql`now()` })
    .where(eq(onlinePayments.id, row.id))
    .returning();
  return updated!;
}

interface Move {
  status: Exclude<Status, 'open'>;
  intent?: string | null;
  method?: Method | null;
  failure_message?: string | null;
  /** Cents received (settling). */
  amount?: number;
}

/** Moves the row forward if it may go there; settling records the payment once, a failure emits payment.failed. */
async function move(ctx: ProviderEventContext, locked: Locked, m: Move): Promise<void> {
  const { row, doc } = locked;
  if (!REACHABLE_FROM[m.status].includes(row.status)) return;
  const known = {
    provider_payment_id: row.provider_payment_id ?? m.intent ?? null,
    method: row.method ?? m.method ?? null,
  };
  if (m.status === 'succeeded') {
    const reference = known.provider_payment_id;
    const { payment } = await applyPayment(ctx.tx, ctx.orgId, doc, {
      amount: m.amount ?? row.amount,
      paid_at: todayParis(ctx.at),
      method: known.method ?? 'card',
      reference,
    });
    await update(ctx.tx, row, { ...known, status: 'succeeded', payment_id: payment!.id });
    return;
  }
  const updated = await update(ctx.tx, row, { ...known, status: m.status, ...(m.status === 'failed' ? { failure_message: m.failure_message ?? row.failure_message } : {}) });
  if (m.status === 'failed') await recordEvent(ctx.tx, ctx.orgId, 'payment.failed', toPublicOnlinePayment(updated));
}

/** checkout.session.completed / async_payment_succeeded / async_payment_failed / expired, payment mode. */
export async function onCheckoutSession(ctx: ProviderEventContext): Promise<void> {
  const session = ctx.event.data.object as Stripe.Checkout.Session;
  const intent = idOf(session.payment_intent);
  const locked = await lockPayment(ctx, { session: session.id, intent, metadata: session.metadata });
  if (!locked) return;
  const common = { intent, method: one(session.payment_method_types) };
  switch (ctx.event.type) {
    case 'checkout.session.completed':
      // A card is paid at completion; a SEPA debit is only submitted (paid days later, or returned).
      return move(ctx, locked, session.payment_status === 'paid' ? { ...common, status: 'succeeded', amount: session.amount_total ?? undefined } : { ...common, status: 'processing' });
    case 'checkout.session.async_payment_succeeded':
      return move(ctx, locked, { ...common, status: 'succeeded', amount: session.amount_total ?? undefined });
    case 'checkout.session.async_payment_failed':
      return move(ctx, locked, { ...common, status: 'failed' });
    case 'checkout.session.expired':
      return move(ctx, locked, { ...common, status: 'expired' });
  }
}

/** payment_intent.succeeded / processing / payment_failed / canceled (Checkout's and off-session debits'). */
export async function onPaymentIntent(ctx: ProviderEventContext): Promise<void> {
  const pi = ctx.event.data.object as Stripe.PaymentIntent;
  const locked = await lockPayment(ctx, { intent: pi.id, metadata: pi.metadata });
  if (!locked) return;
  const common = { intent: pi.id, method: one(pi.payment_method_types) };
  switch (ctx.event.type) {
    case 'payment_intent.succeeded':
      return move(ctx, locked, { ...common, status: 'succeeded', amount: pi.amount_received || pi.amount });
    case 'payment_intent.processing':
      return move(ctx, locked, { ...common, status: 'processing' });
    case 'payment_intent.payment_failed':
      return move(ctx, locked, { ...common, status: 'failed', failure_message: pi.last_payment_error?.message ?? null });
    case 'payment_intent.canceled':
      return move(ctx, locked, { ...common, status: 'canceled' });
  }
}

/**
 * charge.refunded: a charge with refunds, ours or made in the provider's dashboard. Each refund is counted once, by its
 * own id, when it succeeds (online-refunds.ts); the refund.* events say so, and the charge's `refunds` list when the
 * provider includes it. A refund delivered before the payment's success settles the payment first (the charge says
 * it succeeded).
 */
export async function onRefund(ctx: ProviderEventContext): Promise<void> {
  const charge = ctx.event.data.object as Stripe.Charge;
  const intent = idOf(charge.payment_intent);
  const locked = await lockPayment(ctx, { intent, metadata: charge.metadata });
  if (!locked) return;
  const method = isMethod(charge.payment_method_details?.type) ? charge.payment_method_details.type : null;
  if (locked.row.status !== 'succeeded') {
    if (charge.status !== 'succeeded') return;
    await move(ctx, locked, { status: 'succeeded', intent, method, amount: charge.amount });
  }
  // Oldest first, as they were made.
  for (const refund of [...(charge.refunds?.data ?? [])].reverse()) {
    await syncProviderRefund(ctx.tx, ctx.orgId, toRefundInfo(refund), ctx.at, async () => ({ doc: locked.doc, paymentId: locked.row.id }));
  }
}

/**
 * refund.created / refund.updated / refund.failed: a refund's status. Ours is found by its id or our id in its
 * metadata; another one on one of our online payments (made in the dashboard) is recorded. Counted once succeeded.
 */
export async function onRefundObject(ctx: ProviderEventContext): Promise<void> {
  const refund = ctx.event.data.object as Stripe.Refund;
  const info = toRefundInfo(refund);
  await syncProviderRefund(ctx.tx, ctx.orgId, info, ctx.at, async () => {
    if (!info.payment_intent_id) return null;
    const locked = await lockPayment(ctx, { intent: info.payment_intent_id });
    if (!locked) return null;
    if (locked.row.status !== 'succeeded' && info.status === 'succeeded') {
      // A refund that succeeded proves the payment did: settle it first.
      await move(ctx, locked, { status: 'succeeded', intent: info.payment_intent_id });
    }
    return { doc: locked.doc, paymentId: locked.row.id };
  });
}

/**
 * charge.dispute.created / updated / closed: the dispute's status on the online payment. A lost dispute takes the
 * money back: recorded as a refund (negative payment, payment.refunded, on the credit note first as a refund is) so
 * the balance says what is really owed.
 */
export async function onDispute(ctx: ProviderEventContext): Promise<void> {
  const dispute = ctx.event.data.object as Stripe.Dispute;
  const locked = await lockPayment(ctx, { intent: idOf(dispute.payment_intent), metadata: dispute.metadata });
  if (!locked) return;
  const { row, doc } = locked;
  if (row.dispute_status && DISPUTE_CLOSED.includes(row.dispute_status)) return;
  if (dispute.status === 'lost' && row.payment_id) {
    await applyProviderRefund(ctx.tx, ctx.orgId, doc, dispute.amount, { paid_at: todayParis(ctx.at), method: row.method ?? 'card', reference: dispute.id });
  }
  await update(ctx.tx, row, { dispute_status: dispute.status });
}

/**
 * account.updated: the org's readiness as the provider now states it. An event older than the last read (a late
 * delivery after `payments:connect` or an onboarding return) changes nothing.
 */
export async function onAccountUpdated(ctx: ProviderEventContext): Promise<void> {
  const account = ctx.event.data.object as Stripe.Account;
  if (account.id !== ctx.accountId) return;
  const current = await loadPaymentAccount(ctx.tx, ctx.orgId);
  if (current && Math.floor(current.refreshed_at.getTime() / 1000) > ctx.event.created) return;
  await saveReadiness(ctx.tx, ctx.orgId, toReadiness(account), ctx.at);
}
