import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { smsMessages } from '@/db/schema';

/** The org's outbox messages, newest first, `limit` per page; `before` is the last id of the previous page. */
export async function listOutboxSms(db: Db, orgId: string, options: { before?: string | null; limit?: number } = {}) {
  const limit = options.limit ?? 50;
  const rows = await db
    .select()
    .from(smsMessages)
    .where(and(eq(smsMessages.org_id, orgId), eq(smsMessages.transport, 'outbox'), options.before ? lt(smsMessages.id, options.before) : undefined))
    .orderBy(desc(smsMessages.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit);
  return { items, nextBefore: rows.length > limit ? items.at(-1)!.id : null };
}
