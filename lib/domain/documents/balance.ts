import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/*
 * What a document still asks for, defined once for every reader.
 *
 *   remaining_due = total_ttc − total_paid                        (the spec's: payment answers, the document page)
 *   balance       = remaining_due − credited                      (statistics, reminders, refunds)
 *   credited      = Σ over its finalized credit notes of (total_ttc + their payments)
 *
 * remaining_due is negative on overpayment; a document is paid when it is ≤ 0 (payments cover total_ttc). The
 * balance is what the client still owes once a credit note has offset part of the invoice: the statistics'
 * outstanding and overdue amounts and the reminders' amount due. A negative balance is what the client is owed.
 * A refund of that (lib/domain/payments/refunds.ts) is a negative payment recorded on the credit note, so a credit note
 * counts net of what was paid back on it: paid invoice 120, credit note 20, refund 20 → balance 0. Amounts in cents.
 */

/** total_ttc − total_paid: the spec's remaining_due (negative when overpaid). */
export const remainingDue = (doc: { total_ttc: number }, totalPaid: number): number => doc.total_ttc - totalPaid;

/** Σ payments of the document `d` (an SQL alias of a documents row). */
export const paidSql = (d: SQL): SQL => sql`coalesce((select sum(p.amount) from payments p where p.org_id = ${d}.org_id and p.document_id = ${d}.id), 0)`;

/**
 * What the finalized credit note of `d` still credits: its total_ttc plus its payments (refunds, negative). ("status
 * <> 'cancelled'" is always true of a finalized credit note; it lets the lookup use the partial unique index on
 * avoir_for_id.)
 */
export const creditedSql = (d: SQL): SQL => sql`coalesce((select sum(c.total_ttc + ${paidSql(sql`c`)}) from documents c
  where c.avoir_for_id = ${d}.id and c.status <> 'cancelled' and c.finalized_at is not null and c.org_id = ${d}.org_id), 0)`;

/**
 * The balance of the invoice or deposit invoice `d`: total_ttc − payments − its finalized credit note net of its
 * refunds. A scalar expression; where it is both selected and filtered on, put it in `cross join lateral (select …
 * as balance offset 0)` so that it is computed once per row.
 */
export const balanceSql = (d: SQL): SQL => sql`(${remainingDueSql(d)} - ${creditedSql(d)})`;

/** remaining_due in SQL: total_ttc − payments. */
export const remainingDueSql = (d: SQL): SQL => sql`(${d}.total_ttc - ${paidSql(d)})`;

/*
 * Outstanding and overdue, defined once for every reader: the documents list (its « en retard » flag and its
 * outstanding and overdue filters), the dashboard's tiles (lib/domain/stats) and « À relancer » (lib/domain/reminders).
 *
 *   outstanding = an invoice or deposit invoice, finalized or sent, whose balance is > 0
 *   overdue     = outstanding, and its due date is before today (Europe/Paris day)
 *
 * A draft is not issued; paid, cancelled (its credit note offsets it) and fully credited invoices owe nothing; an
 * invoice due today is not overdue yet. The type and status test is the predicate of the documents_org_receivable
 * index (migration billing_list_stats_indexes), as written there.
 */

/** A day given as a value, or as a statement's placeholder (the tracking slices are prepared). */
type Day = string | SQLWrapper;

/**
 * `d` (an SQL alias of a documents row) is outstanding. `balance` is its balance when the caller computed it
 * already, once per row (`cross join lateral (select balanceSql(d) as balance offset 0)`); by default computed here.
 */
export const outstandingSql = (d: SQL, balance: SQL = balanceSql(d)): SQL =>
  sql`(${d}.type in ('facture', 'acompte') and ${d}.status in ('finalized', 'sent') and ${balance} > 0)`;

/** `d` is overdue on `today` (YYYY-MM-DD, Europe/Paris): outstanding and past its due date. */
export const overdueSql = (d: SQL, today: Day, balance: SQL = balanceSql(d)): SQL =>
  sql`(${outstandingSql(d, balance)} and ${d}.due_date < ${today})`;
