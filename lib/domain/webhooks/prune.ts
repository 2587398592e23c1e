import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { webhookDeliveries } from '@/db/schema';
import { webhookDeliveryRetentionDays } from '@/lib/platform/config';
import { defineJob } from '@/lib/platform/jobs';

const BATCH = 5000;

/**
 * Deletes the deliveries that ended (succeeded or failed) more than `days` ago, in batches so that no statement
 * holds many locks: with retries bounded (about 28 h) and this, the log cannot grow without end. Returns the count.
 */
export async function pruneDeliveries(db: Db, days = webhookDeliveryRetentionDays(), now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const result = (await db.execute(sql`
      delete from ${webhookDeliveries} where id in (
        select id from ${webhookDeliveries}
        where status <> 'pending' and updated_at < ${before}::timestamptz
        limit ${BATCH}
      ) returning id
    `)) as unknown as { rows: unknown[] };
    const deleted = result.rows.length;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

export const pruneDeliveriesJob = defineJob<Record<string, never>>({
  name: 'webhooks.prune-deliveries',
  retryLimit: 3,
  retryDelaySeconds: 300,
  retryBackoff: true,
  cron: '23 3 * * *',
  async handle(_data, { db }) {
    await pruneDeliveries(db);
  },
});
