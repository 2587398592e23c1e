import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { preparedStatement } from '@/db/prepared';
import { daysBetween, todayParis } from '@/lib/platform/dates';
import { balanceSql, overdueSql } from '@/lib/domain/documents';
import { type Tracking, TRACKING_ROWS } from './schemas';

const ORG = sql.placeholder('org_id');
const TODAY = sql.placeholder('today');

/** The slices of the tracking order, most urgent first (see slice). */
export const TRACKING_SLICES = [1, 2, 3, 4] as const;
export type TrackingSlice = (typeof TRACKING_SLICES)[number];

/**
 * One slice of the tracking order, each read along an index in that very order and stopped at TRACKING_ROWS.
 * Slices, most urgent first:
 *   1 exhausted ladders, the most overdue first (then the soonest due: days_overdue is floored at 0)
 *   2 overdue invoices that have no reminder at all (never sent, sent after the whole ladder, or sent with an empty
 *     ladder): nobody chases them; the most overdue first
 *   3 pending ladders of overdue documents, the most overdue first, then the soonest next reminder
 *   4 pending ladders of documents not overdue (all tied at 0 days), the soonest next reminder first
 * Slices 1, 3 and 4 walk `reminder_ladders` (the ladder state the triggers keep), each candidate checked against its
 * document (still an unpaid invoice or deposit invoice, balance > 0); slice 2 walks the org's outstanding documents
 * (the documents_org_receivable index) by the documents module's one definition of overdue (overdueSql, the
 * documents list's and the dashboard's), keeping those without a ladder row. Slices 2 and 3 together are every
 * overdue document. Remaining ties: the oldest document first (ids are UUIDv7).
 */
function slice(n: TrackingSlice): SQL {
  // "offset 0" keeps the balance a subquery of its own: computed once per candidate, not once more for the output.
  if (n === 2) {
    return sql`(select d.id as document_id, d.due_date, 0::bigint as sent_count, 0::bigint as pending_count,
                       null::timestamptz as next_at, false as exhausted,
                       d.number, d.total_ttc, d.contact_id, d.client_snapshot->>'name' as snapshot_name, b.balance
                  from documents d
                  cross join lateral (select ${balanceSql(sql`d`)} as balance offset 0) b
                 where d.org_id = ${ORG} and ${overdueSql(sql`d`, TODAY, sql`b.balance`)}
                   and not exists (select 1 from reminder_ladders l where l.document_id = d.id)
                 order by d.due_date, d.id
                 limit ${sql.raw(String(TRACKING_ROWS))}) t`;
  }
  const where =
    n === 1 ? sql`l.exhausted` : n === 3 ? sql`not l.exhausted and l.due_date < ${TODAY}` : sql`not l.exhausted and (l.due_date >= ${TODAY} or l.due_date is null)`;
  return sql`(select l.document_id, l.due_date, l.sent_count, l.pending_count, l.next_at, l.exhausted,
                     d.number, d.total_ttc, d.contact_id, d.client_snapshot->>'name' as snapshot_name, b.balance
                from reminder_ladders l
                join documents d on d.id = l.document_id and d.type in ('facture', 'acompte') and d.status in ('finalized', 'sent')
                cross join lateral (select ${balanceSql(sql`d`)} as balance offset 0) b
               where l.org_id = ${ORG} and l.open and ${where} and b.balance > 0
               order by ${orderOf(n, 'l')}
               limit ${sql.raw(String(TRACKING_ROWS))}) t`;
}

const orderOf = (n: TrackingSlice, t: string) => sql.raw(n === 4 ? `${t}.next_at, ${t}.document_id` : `${t}.due_date, ${t}.next_at, ${t}.document_id`);

/**
 * The columns of a tracking row. The contact is looked up for the rows kept only, by a scalar subquery (an
 * EXISTS would scan every contact). Dates leave as text and epoch milliseconds: the drivers type them apart.
 */
const FIELDS = {
  document_id: sql<string>`t.document_id`,
  number: sql<string | null>`t.number`,
  snapshot_name: sql<string | null>`t.snapshot_name`,
  contact_live: sql<boolean>`coalesce((select c.deleted_at is null and c.erased_at is null from contacts c where c.id = t.contact_id and c.org_id = ${ORG}), false)`,
  due_day: sql<string | null>`to_char(t.due_date, 'YYYY-MM-DD')`,
  next_ms: sql<string | number | null>`(extract(epoch from t.next_at) * 1000)::bigint`,
  total_ttc: sql<string | number>`t.total_ttc`,
  balance: sql<string | number>`t.balance`,
  sent_count: sql<string | number>`t.sent_count`,
  pending_count: sql<string | number>`t.pending_count`,
  exhausted: sql<boolean>`t.exhausted`,
};

/** The statement of a slice, its org and day as placeholders (org_id, today); exported for the bench's EXPLAIN. */
export const trackingSliceQuery = (db: Db, n: TrackingSlice) => db.select(FIELDS).from(slice(n)).orderBy(orderOf(n, 't'));

/**
 * Named prepared statements, per database handle: on PostgreSQL each connection plans a slice once and reuses
 * the plan (planning the documents table with its many indexes costs more than running the slice).
 */
const trackingSlices = preparedStatement((db) =>
  TRACKING_SLICES.map((n) => trackingSliceQuery(db, n).prepare(`reminder_tracking_slice_${n}`)),
);

/**
 * GET /v1/invoices/reminders/tracking: the org's unsettled issued documents that have reminders, and every overdue
 * one even without, most urgent first — exhausted ladders, then the overdue without any reminder, then the most
 * overdue, then soonest next reminder (remaining ties: the sooner due date, then the oldest document) — at most 20. The slices are read in turn until 20 rows are found (most
 * of the time the first fills the page). `now` is the clock (Europe/Paris day for days_overdue).
 */
export async function reminderTracking(db: Db, orgId: string, now = new Date()): Promise<Tracking> {
  const today = todayParis(now);
  const slices = trackingSlices(db);
  const rows: Array<Awaited<ReturnType<(typeof slices)[number]['execute']>>[number]> = [];
  for (const statement of slices) {
    rows.push(...(await statement.execute({ org_id: orgId, today })));
    if (rows.length >= TRACKING_ROWS) break;
  }
  return {
    items: rows.slice(0, TRACKING_ROWS).map((r) => {
      const due = r.due_day ?? null;
      return {
        document_id: r.document_id,
        number: r.number ?? null,
        contact_name: r.contact_live ? (r.snapshot_name ?? null) : null,
        due_date: due,
        days_overdue: due ? Math.max(0, daysBetween(due, today)) : 0,
        total_ttc_cents: Number(r.total_ttc),
        balance_cents: Number(r.balance),
        sent_count: Number(r.sent_count),
        pending_count: Number(r.pending_count),
        next_at: r.next_ms === null ? null : new Date(Number(r.next_ms)).toISOString(),
        exhausted: Boolean(r.exhausted),
      };
    }),
  };
}
