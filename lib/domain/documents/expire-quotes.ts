import { and, inArray, lt, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documents } from '@/db/schema';
import { defineJob } from '@/lib/platform/jobs';
import { todayParis } from '@/lib/platform/dates';
import { recordDocumentEvent, selectFullDocuments } from './documents';
import { OPEN_QUOTE_STATUSES } from './transitions';

const BATCH = 500;

/**
 * Every open (finalized or sent) quote whose validity date is before `today` (Europe/Paris) becomes expired,
 * with its quote.expired event, in batches. Runs across orgs: a maintenance job, not an org's request.
 * Returns how many quotes expired.
 */
export async function expireQuotes(db: Db, today: string = todayParis()): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await tx
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.type, 'devis'), inArray(documents.status, OPEN_QUOTE_STATUSES), lt(documents.validity_date, today)))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return 0;
      const now = new Date();
      const ids = due.map((d) => d.id);
      await tx.update(documents).set({ status: 'expired', status_changed_at: now, updated_at: now }).where(inArray(documents.id, ids));
      // Read back with their states (a quote's PDF is pdf's): the events show each quote as the API does.
      const expired = await selectFullDocuments(tx).where(inArray(documents.id, ids)).orderBy(documents.id);
      for (const row of expired) await recordDocumentEvent(tx, row.org_id, 'quote.expired', row);
      return expired.length;
    });
    total += count;
    if (count < BATCH) return total;
  }
}

/** Daily, just after midnight in Paris: a quote valid "until the 30th" lapses once the 30th is over. */
export const expireQuotesJob = defineJob<Record<string, never>>({
  name: 'billing.expire-quotes',
  retryLimit: 3,
  retryDelaySeconds: 300,
  retryBackoff: true,
  cron: '5 0 * * *',
  async handle(_data, { db }) {
    await expireQuotes(db);
  },
});
