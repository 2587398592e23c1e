import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { daysBetween, todayParis } from '@/lib/billing/dates';
import { balanceSql } from './balance';
import { type Tracking, TRACKING_ROWS } from './schemas';

type Row = Record<string, unknown>;

/**
 * One slice of the tracking order, read from `reminder_ladders` (the ladder state the triggers keep) along an
 * index in that order: each candidate is checked against its document (still an unpaid invoice or deposit
 * invoice, balance > 0) as the index is walked, and the walk stops at TRACKING_ROWS. Buckets:
 *   1 exhausted and overdue (most overdue first)   2 exhausted, not overdue
 *   3 pending and overdue (most overdue, then next reminder)   4 pending, not overdue (next reminder)
 * days_overdue is floored at 0, so every document not overdue ties on it: next_at orders them.
 */
function bucket(n: 1 | 2 | 3 | 4, orgId: string, today: string): SQL {
  const exhausted = n <= 2 ? sql`l.exhausted` : sql`not l.exhausted`;
  const overdue = n === 1 || n === 3 ? sql`l.due_date < ${today}` : sql`(l.due_date >= ${today} or l.due_date is null)`;
  const order = n === 2 ? sql`l.document_id` : n === 4 ? sql`l.next_at, l.document_id` : sql`l.due_date, l.next_at, l.document_id`;
  return sql`(
    select ${sql.raw(String(n))} as bucket, l.document_id, l.due_date, l.sent_count, l.pending_count, l.next_at, l.exhausted,
           to_char(l.due_date, 'YYYY-MM-DD') as due_day, (extract(epoch from l.next_at) * 1000)::bigint as next_ms,
           d.number, d.total_ttc, d.contact_id, d.client_snapshot->>'name' as snapshot_name, b.balance
      from reminder_ladders l
      join documents d on d.id = l.document_id and d.type in ('facture', 'acompte') and d.status in ('finalized', 'sent')
      cross join lateral (select ${balanceSql(sql`d`)} as balance) b
     where l.org_id = ${orgId} and l.open and ${exhausted} and ${overdue} and b.balance > 0
     order by ${order}
     limit ${sql.raw(String(TRACKING_ROWS))})`;
}

/**
 * GET /v1/invoices/reminders/tracking: the org's unsettled issued documents that have a reminder ladder, most
 * urgent first — exhausted ladders, then most overdue, then soonest next reminder (ties: oldest document
 * first) — at most 20. `now` is the clock (Europe/Paris day for days_overdue).
 */
export async function reminderTracking(db: Db, orgId: string, now = new Date()): Promise<Tracking> {
  const today = todayParis(now);
  const result = (await db.execute(sql`
    select t.*, (c.id is null or c.deleted_at is not null or c.erased_at is not null) as contact_gone
      from (${bucket(1, orgId, today)} union all ${bucket(2, orgId, today)} union all ${bucket(3, orgId, today)} union all ${bucket(4, orgId, today)}) t
      left join contacts c on c.org_id = ${orgId} and c.id = t.contact_id
     order by t.bucket, case when t.bucket in (1, 3) then t.due_date end, t.next_at, t.document_id
     limit ${sql.raw(String(TRACKING_ROWS))}`)) as unknown as { rows: Row[] };

  return {
    items: result.rows.map((r) => {
      // Read as text and epoch milliseconds: the drivers disagree on how they type date and timestamptz.
      const due = (r.due_day as string | null) ?? null;
      const nextAt = r.next_ms === null ? null : new Date(Number(r.next_ms));
      return {
        document_id: String(r.document_id),
        number: (r.number as string | null) ?? null,
        contact_name: r.contact_gone ? null : ((r.snapshot_name as string | null) ?? null),
        due_date: due,
        days_overdue: due ? Math.max(0, daysBetween(due, today)) : 0,
        total_ttc_cents: Number(r.total_ttc),
        balance_cents: Number(r.balance),
        sent_count: Number(r.sent_count),
        pending_count: Number(r.pending_count),
        next_at: nextAt ? nextAt.toISOString() : null,
        exhausted: Boolean(r.exhausted),
      };
    }),
  };
}
