import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureEnvelopes } from '@/db/schema';
import { recordEvent } from '@/lib/events';
import { appendAuditEvent } from './audit';
import { envelopeEventObject } from './events';
import { ACTIVE_STATUSES, isActive, signersOf } from './lifecycle';
import { queueExpiredEmails } from './signature-emails';
import { killSignerTokens } from './tokens';

/**
 * The envelopes sent or in progress whose `expires_at` has passed become `expired`: links killed, `envelope.expired`
 * appended, `signature.envelope.expired` recorded, and the expired e-mail queued to the sender and to each signer
 * who had been notified and had not signed; one transaction per envelope, a concurrent run skipping the locked ones.
 * Returns how many expired.
 */
export async function expireDueEnvelopes(db: Db, now = new Date(), limit = 200): Promise<number> {
  const due = await db
    .select({ id: signatureEnvelopes.id })
    .from(signatureEnvelopes)
    .where(and(inArray(signatureEnvelopes.status, [...ACTIVE_STATUSES]), lte(signatureEnvelopes.expires_at, now)))
    .orderBy(asc(signatureEnvelopes.expires_at))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)).for('update', { skipLocked: true });
      // Re-checked under the lock: completed, cancelled or reactivated in the meantime.
      if (!row || !isActive(row.status) || !row.expires_at || row.expires_at > now) return false;
      // Recorded at the time it happens (`now` only chooses which envelopes are due).
      const at = new Date();
      const [updated] = await tx
        .update(signatureEnvelopes)
        .set({ status: 'expired', expired_at: at, next_reminder_at: null })
        .where(eq(signatureEnvelopes.id, id))
        .returning();
      await killSignerTokens(tx, id);
      const signers = await signersOf(tx, id);
      await appendAuditEvent(tx, id, {
        event_type: 'envelope.expired',
        occurred_at: at,
        event_data: { ip: null, user_agent: null, expires_at: row.expires_at.toISOString(), previous_status: row.status },
      });
      await recordEvent(tx, row.org_id, 'signature.envelope.expired', envelopeEventObject(updated!, signers.length));
      await queueExpiredEmails(tx, updated!, signers, at);
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
