import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { conflict } from '@/lib/platform/errors';
import { appendAuditEvent } from './audit';
import type { Actor } from './envelopes';
import { ACTIVE_STATUSES, actorData, type EnvelopeRow, envelopeWithSigners, isActive, loadEnvelope, signersOf } from './lifecycle';
import { envelopeMailContext, queueSignerRequest } from './signature-emails';
import { decryptSignerToken, issueSignerToken } from './tokens';
import { currentTurn, nextReminderAt } from './turns';

const NO_ACTOR: Actor = { ip: null, user_agent: null, user_id: null, api_key_id: null };

/**
 * The reminder e-mail to each signer whose turn it is and who has not signed (notified or opened), with the link
 * they already have (a new token only if the stored copy cannot be decrypted); `reminder_count` + 1, the next
 * automatic reminder rescheduled, `envelope.reminded` appended. In the caller's transaction, the envelope locked.
 */
async function remind(tx: Tx, envelope: EnvelopeRow, actor: Actor, automatic: boolean): Promise<number> {
  const now = new Date();
  const due = currentTurn(envelope.routing_mode, await signersOf(tx, envelope.id)).filter((s) => s.status === 'notified' || s.status === 'opened');
  const mail = await envelopeMailContext(tx, envelope);
  for (const signer of due) {
    const raw = decryptSignerToken(signer.token_ciphertext, signer.token_hash) ?? (await issueSignerToken(tx, signer.id));
    await queueSignerRequest(tx, envelope, signer, raw, 'reminder', mail);
  }
  if (due.length) await tx.update(signatureSigners).set({ reminded_at: now }).where(inArray(signatureSigners.id, due.map((s) => s.id)));
  const count = envelope.reminder_count + 1;
  await tx
    .update(signatureEnvelopes)
    .set({ reminder_count: count, next_reminder_at: nextReminderAt({ ...envelope, reminder_count: count }, now) })
    .where(eq(signatureEnvelopes.id, envelope.id));
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'envelope.reminded',
    occurred_at: now,
    event_data: { ...actorData(actor), automatic, reminder_count: count, signer_ids: due.map((s) => s.id) },
  });
  return due.length;
}

/** `POST …/remind`: a reminder now (409 `envelope_not_active` unless sent or in progress). */
export async function remindEnvelope(db: Db, orgId: string, id: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const row = await loadEnvelope(tx, orgId, id, true);
    if (!isActive(row.status)) throw conflict('envelope_not_active', `The envelope is ${row.status}: only a sent or in-progress envelope can be reminded.`);
    await remind(tx, row, actor, false);
    return envelopeWithSigners(tx, id);
  });
}

/**
 * The automatic reminders that have come due (`next_reminder_at` passed, fewer than `reminder_max_count` sent):
 * each envelope in its own transaction, locked and skipped by a concurrent run (SKIP LOCKED). Returns how many
 * envelopes were reminded.
 */
export async function sendDueSignatureReminders(db: Db, now = new Date(), limit = 200): Promise<number> {
  const due = await db
    .select({ id: signatureEnvelopes.id })
    .from(signatureEnvelopes)
    .where(
      and(
        inArray(signatureEnvelopes.status, [...ACTIVE_STATUSES]),
        lte(signatureEnvelopes.next_reminder_at, now),
        sql`${signatureEnvelopes.reminder_count} < ${signatureEnvelopes.reminder_max_count}`,
      ),
    )
    .orderBy(asc(signatureEnvelopes.next_reminder_at))
    .limit(limit);
  let reminded = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)).for('update', { skipLocked: true });
      // Re-checked under the lock: cancelled, signed or reminded by another run in the meantime.
      if (!row || !isActive(row.status) || !row.next_reminder_at || row.next_reminder_at > now || row.reminder_count >= row.reminder_max_count) return false;
      await remind(tx, row, NO_ACTOR, true);
      return true;
    });
    if (done) reminded++;
  }
  return reminded;
}
