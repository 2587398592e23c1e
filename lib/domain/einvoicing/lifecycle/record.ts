import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { einvoicingLifecycleEvents, type LifecycleIssuerRole } from '@/db/schema';
import { lifecycleToken, REASON_REQUIRED } from '../lifecycle-codes';
import { setLifecycleStatus } from '../transmission/state';

export interface LifecycleEntry {
  /** The status' identity: `cdar:<flow id>:<message id>` for one the PA reports, `sent:212:<document id>` for ours. */
  paEventId: string;
  direction: 'received' | 'sent';
  flowId: string | null;
  code: string;
  reasonCode: string | null;
  reason: string | null;
  issuerRole: LifecycleIssuerRole;
  amountCents?: number | null;
  occurredAt: Date;
}

/**
 * Appends one status to a document's lifecycle log — once: the PA's identity of the status is unique per org, a
 * second report of it writes nothing (false). A new status that is the latest the document has seen becomes its
 * summary (einvoicing_document_states: lifecycle_status = the code's token, _reason, _at) and is announced by
 * `invoice.lifecycle_updated`.
 * In the caller's transaction.
 */
export async function appendLifecycle(tx: Tx, orgId: string, documentId: string, entry: LifecycleEntry): Promise<boolean> {
  const token = lifecycleToken(entry.code);
  // The spec's lifecycle_reason is the reason of a negative status; a positive one's comment stays in the log only.
  const reason = REASON_REQUIRED.has(entry.code) ? [entry.reasonCode, entry.reason].filter(Boolean).join(' — ') || null : null;
  const [inserted] = await tx
    .insert(einvoicingLifecycleEvents)
    .values({
      org_id: orgId,
      document_id: documentId,
      direction: entry.direction,
      pa_event_id: entry.paEventId,
      flow_id: entry.flowId,
      code: entry.code,
      token,
      reason_code: entry.reasonCode,
      reason: entry.reason,
      issuer_role: entry.issuerRole,
      amount_cents: entry.amountCents ?? null,
      occurred_at: entry.occurredAt,
    })
    .onConflictDoNothing({ target: [einvoicingLifecycleEvents.org_id, einvoicingLifecycleEvents.pa_event_id] })
    .returning({ id: einvoicingLifecycleEvents.id });
  if (!inserted) return false;
  // Statuses can arrive out of order (one poll reads several): the summary is the latest by the time it happened.
  await setLifecycleStatus(tx, orgId, documentId, { token, reason, at: entry.occurredAt });
  return true;
}

/** A document's lifecycle log, oldest first (the document page's timeline). */
export async function lifecycleLog(db: Db, orgId: string, documentId: string) {
  return db
    .select({
      code: einvoicingLifecycleEvents.code,
      token: einvoicingLifecycleEvents.token,
      direction: einvoicingLifecycleEvents.direction,
      reason_code: einvoicingLifecycleEvents.reason_code,
      reason: einvoicingLifecycleEvents.reason,
      issuer_role: einvoicingLifecycleEvents.issuer_role,
      amount_cents: einvoicingLifecycleEvents.amount_cents,
      occurred_at: einvoicingLifecycleEvents.occurred_at,
    })
    .from(einvoicingLifecycleEvents)
    .where(and(eq(einvoicingLifecycleEvents.org_id, orgId), eq(einvoicingLifecycleEvents.document_id, documentId)))
    .orderBy(asc(einvoicingLifecycleEvents.occurred_at), asc(einvoicingLifecycleEvents.received_at));
}
