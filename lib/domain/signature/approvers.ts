import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { memberships, signatureApprovers, users } from '@/db/schema';
import { ApiError, conflict, notFound, validationError } from '@/lib/platform/errors';
import { readsOnly } from '@/lib/platform/orgs';
import { appendAuditEvent } from './audit';
import type { Actor } from './envelopes';
import { actorData, loadEnvelope } from './lifecycle';
import type { ApproveInput, ApproverCreate } from './lifecycle-schemas';
import { queueApproverAdded } from './signature-emails';

type ApproverRow = typeof signatureApprovers.$inferSelect;

/** The spec's Approver. */
export const publicApprover = (row: ApproverRow) => ({ id: row.id, user_id: row.user_id, approved_at: row.approved_at?.toISOString() ?? null });

const notDraft = (status: string) => conflict('signature_conflict', `The envelope is ${status}: approvers change only while it is a draft.`);

/**
 * `POST …/approvers` (spec): a member of the org (422 on `user_id` otherwise) becomes an approver of a draft; 409
 * `signature_conflict` when the envelope is not a draft or the user is already an approver. The approver is e-mailed
 * the back-office link of the envelope, in the same transaction.
 */
export async function addApprover(db: Db, orgId: string, envelopeId: string, input: ApproverCreate) {
  return db.transaction(async (tx) => {
    const envelope = await loadEnvelope(tx, orgId, envelopeId, true);
    if (envelope.status !== 'draft') throw notDraft(envelope.status);
    const [member] = await tx
      .select({ email: users.email, name: users.name, role: memberships.role })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.user_id))
      .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, input.user_id)));
    if (!member) throw validationError('user_id', 'user_id: must be a member of the organisation');
    // The accountant's access reads only: they could never give the approval the envelope would wait for.
    if (readsOnly(member.role)) throw validationError('user_id', 'user_id: an accountant (read-only access) cannot approve');
    const [row] = await tx.insert(signatureApprovers).values({ org_id: orgId, envelope_id: envelopeId, user_id: input.user_id }).onConflictDoNothing().returning();
    if (!row) throw conflict('signature_conflict', 'This user is already an approver of the envelope.', 'user_id');
    await queueApproverAdded(tx, envelope, member);
    return publicApprover(row);
  });
}

/** `GET …/approvers`: in the order they were added. */
export async function listApprovers(db: Db, orgId: string, envelopeId: string) {
  await loadEnvelope(db, orgId, envelopeId);
  const rows = await db
    .select()
    .from(signatureApprovers)
    .where(and(eq(signatureApprovers.org_id, orgId), eq(signatureApprovers.envelope_id, envelopeId)))
    .orderBy(asc(signatureApprovers.created_at), asc(signatureApprovers.id));
  return { data: rows.map(publicApprover) };
}

/** `DELETE …/approvers/{approver_id}`: while the envelope is a draft (409 `signature_conflict` otherwise). */
export async function removeApprover(db: Db, orgId: string, envelopeId: string, approverId: string) {
  await db.transaction(async (tx) => {
    const envelope = await loadEnvelope(tx, orgId, envelopeId, true);
    const deleted = await tx
      .delete(signatureApprovers)
      .where(and(eq(signatureApprovers.org_id, orgId), eq(signatureApprovers.envelope_id, envelopeId), eq(signatureApprovers.id, approverId)))
      .returning({ id: signatureApprovers.id });
    if (deleted.length === 0) throw notFound('Approver');
    // Checked after the lookup: an unknown approver is a 404 whatever the status.
    if (envelope.status !== 'draft') throw notDraft(envelope.status);
  });
}

/**
 * `POST …/approve` (`{user_id?}`): the approver (the session's user by default; an API key has no user and must name
 * one; a staff member approves only for themselves, 403) approves the draft; `envelope.approved` is appended. An
 * approval given already is answered as it is. 422 on `user_id` when that user is not an approver of the envelope.
 */
export async function approveEnvelope(db: Db, orgId: string, envelopeId: string, input: ApproveInput, actor: Actor) {
  const sessionUser = actor.user_id ?? null;
  const userId = input?.user_id ?? sessionUser;
  if (!userId) throw validationError('user_id', 'user_id: required when calling with an API key');
  if (sessionUser && userId !== sessionUser) throw new ApiError(403, 'forbidden', 'A staff member approves an envelope only for themselves.');
  return db.transaction(async (tx) => {
    const envelope = await loadEnvelope(tx, orgId, envelopeId, true);
    if (envelope.status !== 'draft') throw conflict('envelope_not_draft', `The envelope is ${envelope.status}: approvals are given before it is sent.`);
    const [approver] = await tx
      .select()
      .from(signatureApprovers)
      .where(and(eq(signatureApprovers.org_id, orgId), eq(signatureApprovers.envelope_id, envelopeId), eq(signatureApprovers.user_id, userId)));
    if (!approver) throw validationError('user_id', 'user_id: is not an approver of this envelope');
    if (approver.approved_at) return publicApprover(approver);
    const now = new Date();
    const [approved] = await tx.update(signatureApprovers).set({ approved_at: now }).where(eq(signatureApprovers.id, approver.id)).returning();
    await appendAuditEvent(tx, envelopeId, {
      event_type: 'envelope.approved',
      occurred_at: now,
      event_data: { ...actorData(actor), approver_id: approver.id, approver_user_id: userId },
    });
    return publicApprover(approved!);
  });
}
