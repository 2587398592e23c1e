import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { appendAuditEvent } from './audit';
import { envelopeMailContext, queueSignerRequest } from './signature-emails';
import { issueSignerToken } from './tokens';

type SignerRow = typeof signatureSigners.$inferSelect;
type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;

/** The default cadence of automatic reminders (issue 18: every 48 h unless the envelope says otherwise). */
export const DEFAULT_REMINDER_INTERVAL_HOURS = 48;

/** When the next automatic reminder is due, counted from `from`; null once reminder_max_count is reached. */
export function nextReminderAt(envelope: Pick<EnvelopeRow, 'reminder_count' | 'reminder_max_count' | 'reminder_interval_hours'>, from: Date): Date | null {
  if (envelope.reminder_count >= envelope.reminder_max_count) return null;
  return new Date(from.getTime() + (envelope.reminder_interval_hours ?? DEFAULT_REMINDER_INTERVAL_HOURS) * 3_600_000);
}

/** The request's address and user agent, for the chain (a job passes nulls). */
export interface TurnContext {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The signers whose turn it is now: in parallel routing every signer; in sequential routing those at the lowest
 * `routing_order` among the signers who have not signed (equal orders sign in parallel).
 */
export function currentTurn(routingMode: 'sequential' | 'parallel', signers: readonly SignerRow[]): SignerRow[] {
  if (routingMode === 'parallel') return [...signers];
  const pending = signers.filter((s) => s.status !== 'signed');
  if (pending.length === 0) return [];
  const lowest = Math.min(...pending.map((s) => s.routing_order));
  return pending.filter((s) => s.routing_order === lowest);
}

/**
 * Opens the current turn (DESIGN §12): each signer of it still `waiting` becomes `notified`: a token is issued,
 * `signer.notified` appended to the chain and the request e-mail queued, all in the caller's transaction.
 * Idempotent (a signer already notified is left alone); does nothing unless the envelope is sent or in progress.
 * Returns the signers notified now.
 */
export async function openTurns(tx: Tx | Db, envelopeId: string, ctx: TurnContext): Promise<SignerRow[]> {
  // Locks the envelope: two signatures finishing at once open the next turn once.
  const [envelope] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId)).for('update');
  if (!envelope) throw notFound('Signature envelope');
  if (envelope.status !== 'sent' && envelope.status !== 'in_progress') return [];
  const signers = await tx.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
  const due = currentTurn(envelope.routing_mode, signers).filter((s) => s.status === 'waiting');
  if (due.length === 0) return [];
  const mail = await envelopeMailContext(tx, envelope);
  const notified: SignerRow[] = [];
  for (const signer of due) {
    const raw = await issueSignerToken(tx, signer.id);
    const now = new Date();
    const [row] = await tx
      .update(signatureSigners)
      .set({ status: 'notified', notified_at: now })
      .where(and(eq(signatureSigners.id, signer.id), eq(signatureSigners.status, 'waiting')))
      .returning();
    await appendAuditEvent(tx, envelopeId, {
      event_type: 'signer.notified',
      signer_id: signer.id,
      occurred_at: now,
      event_data: { ip: ctx.ip, user_agent: ctx.userAgent, email: signer.email, routing_order: signer.routing_order, channel: 'email' },
    });
    await queueSignerRequest(tx, envelope, row!, raw, 'request', mail);
    notified.push(row!);
  }
  // The next automatic reminder counts from the newest turn: a signer just notified is not reminded at once.
  await tx.update(signatureEnvelopes).set({ next_reminder_at: nextReminderAt(envelope, new Date()) }).where(eq(signatureEnvelopes.id, envelopeId));
  return notified;
}
