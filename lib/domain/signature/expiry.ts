import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureEnvelopes } from '@/db/schema';
import { ACTIVE_STATUSES, expireLocked, isActive } from './lifecycle';

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
      await expireLocked(tx, row);
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
