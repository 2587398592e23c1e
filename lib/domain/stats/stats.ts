import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { displayName } from '@/lib/domain/contacts';
import { notFound, validationError } from '@/lib/platform/errors';
import { balanceSql, OPEN_QUOTE_STATUSES, outstandingSql, overdueSql } from '@/lib/domain/documents';
import { addDays, todayParis } from '@/lib/platform/dates';
import { contactGone, loadContactRow } from '@/lib/domain/documents';
import type { ClientSummary, InvoiceStats, Revenue, RevenueByClient, RevenueByClientQuery, RevenueQuery, StatsQuery } from './schemas';

/**
 * Figures over finalized documents only (a draft is not a sale). Revenue is dated by issue date; a credit note
 * counts negatively in its own month; deposits count when issued and the final invoice only for its balance
 * (it deducts them), so nothing is counted twice. Amounts in cents.
 */

type Row = Record<string, unknown>;
async function query<T extends Row>(db: Db, q: SQL): Promise<T[]> {
  const result = (await db.execute(q)) as unknown as { rows: T[] };
  return result.rows;
}
const n = (v: unknown) => Number(v ?? 0);

const startOfYear = (day: string) => `${day.slice(0, 4)}-01-01`;
/** The first day of the month `months` months before `day`'s month. */
function monthsBack(day: string, months: number): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 - months;
  const date = new Date(Date.UTC(y, m, 1));
  return date.toISOString().slice(0, 10);
}

/** Sums over the finalized invoices, deposits and credit notes matching `where` (quotes, if any, aside). */
const billedSums = sql`
  count(*) filter (where type in ('facture', 'acompte')) as invoice_count,
  coalesce(sum(total_ht) filter (where type in ('facture', 'acompte')), 0) as invoiced_ht,
  coalesce(sum(total_tva) filter (where type in ('facture', 'acompte')), 0) as invoiced_tva,
  coalesce(sum(total_ttc) filter (where type in ('facture', 'acompte')), 0) as invoiced_ttc,
  count(*) filter (where type = 'avoir') as credit_note_count,
  coalesce(sum(total_ht) filter (where type = 'avoir'), 0) as credited_ht,
  coalesce(sum(total_tva) filter (where type = 'avoir'), 0) as credited_tva,
  coalesce(sum(total_ttc) filter (where type = 'avoir'), 0) as credited_ttc`;

const billed = (orgId: string, extra: SQL) => sql`
  from documents
  where org_id = ${orgId} and finalized_at is not null and type in ('facture', 'acompte', 'avoir') ${extra}`;

/**
 * Outstanding and overdue invoices and deposits, by the documents module's one definition (outstandingSql,
 * overdueSql: the documents list's filters and « en retard » flag, « À relancer »), their balances summed.
 */
async function balances(db: Db, orgId: string, today: string, contactId?: string) {
  const [r] = await query(
    db,
    sql`
    select count(*) as count, coalesce(sum(bal), 0) as amount,
           count(*) filter (where overdue) as overdue_count,
           coalesce(sum(bal) filter (where overdue), 0) as overdue_amount
    from (
      select b.bal, ${overdueSql(sql`d`, today, sql`b.bal`)} as overdue
      from documents d
      -- Lateral, offset 0: each balance is computed once (in the select list and the filter alike), per open document.
      cross join lateral (select ${balanceSql(sql`d`)} as bal offset 0) b
      -- The type and status of outstandingSql are the predicate of the documents_org_receivable index.
      where d.org_id = ${orgId} and ${outstandingSql(sql`d`, sql`b.bal`)}
            ${contactId ? sql`and d.contact_id = ${contactId}` : sql``}
    ) x`,
  );
  return {
    outstanding: { count: n(r?.count), amount: n(r?.amount) },
    overdue: { count: n(r?.overdue_count), amount: n(r?.overdue_amount) },
  };
}

const amountsOf = (r: Row | undefined, prefix: 'invoiced' | 'credited') => ({
  count: n(r?.[prefix === 'invoiced' ? 'invoice_count' : 'credit_note_count']),
  total_ht: n(r?.[`${prefix}_ht`]),
  total_tva: n(r?.[`${prefix}_tva`]),
  total_ttc: n(r?.[`${prefix}_ttc`]),
});

export async function invoiceStats(db: Db, orgId: string, q: StatsQuery): Promise<InvoiceStats> {
  const as_of = todayParis();
  const to = q.to ?? as_of;
  const from = q.from ?? startOfYear(to);
  const range = sql`and issue_date between ${from} and ${to}`;

  // Independent reads, run side by side on the pool. One pass over the finalized documents of the range, grouped
  // by type and status (an index-only scan of documents_org_issued), gives the sales and the quotes.
  const [groups, [collected], [drafts], open] = await Promise.all([
    query(
      db,
      sql`select type, status, count(*) as count, sum(total_ht) as ht, sum(total_tva) as tva, sum(total_ttc) as ttc
          from documents
          where org_id = ${orgId} and finalized_at is not null ${range}
          group by type, status`,
    ),
    query(
      db,
      sql`select count(*) as count, coalesce(sum(amount), 0) as amount from payments
          where org_id = ${orgId} and paid_at between ${from} and ${to}`,
    ),
    query(db, sql`select count(*) as count from documents where org_id = ${orgId} and status = 'draft'`),
    balances(db, orgId, as_of),
  ]);
  const sum = (keep: (g: Row) => boolean) => {
    const out = { count: 0, total_ht: 0, total_tva: 0, total_ttc: 0 };
    for (const g of groups.filter(keep)) {
      out.count += n(g.count);
      out.total_ht += n(g.ht);
      out.total_tva += n(g.tva);
      out.total_ttc += n(g.ttc);
    }
    return out;
  };
  const quote = (statuses: string[]) => sum((g) => g.type === 'devis' && statuses.includes(String(g.status)));
  const invoiced = sum((g) => g.type === 'facture' || g.type === 'acompte');
  const credited = sum((g) => g.type === 'avoir');
  // Awaiting an answer: the documents list's awaiting_answer filter, by the same statuses.
  const openQuotes = quote(OPEN_QUOTE_STATUSES);
  const accepted = quote(['accepted']);
  return {
    from,
    to,
    as_of,
    invoiced,
    credited,
    net: {
      total_ht: invoiced.total_ht - credited.total_ht,
      total_tva: invoiced.total_tva - credited.total_tva,
      total_ttc: invoiced.total_ttc - credited.total_ttc,
    },
    collected: { count: n(collected?.count), amount: n(collected?.amount) },
    ...open,
    drafts: { count: n(drafts?.count) },
    quotes: {
      open: { count: openQuotes.count, total_ht: openQuotes.total_ht },
      accepted: { count: accepted.count, total_ht: accepted.total_ht },
      rejected: { count: quote(['rejected']).count },
      expired: { count: quote(['expired']).count },
    },
  };
}

const revenueOf = (r: Row | undefined) => ({
  invoiced_ht: n(r?.invoiced_ht),
  credited_ht: n(r?.credited_ht),
  net_ht: n(r?.invoiced_ht) - n(r?.credited_ht),
  net_tva: n(r?.invoiced_tva) - n(r?.credited_tva),
  net_ttc: n(r?.invoiced_ttc) - n(r?.credited_ttc),
});

/** At most ten years of months per request: the answer lists every month. */
const MAX_MONTHS = 120;

export async function revenueByMonth(db: Db, orgId: string, q: RevenueQuery): Promise<Revenue> {
  const to = q.to ?? todayParis();
  const from = q.from ?? monthsBack(to, 11);
  const months: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = addDays(`${m}-28`, 5).slice(0, 7)) months.push(m);
  if (months.length > MAX_MONTHS) {
    throw validationError('from', `from: at most ${MAX_MONTHS} months per request`);
  }
  // Grouped by day and by sign (an index-only scan of documents_org_issued), then into months here: cheaper than
  // formatting every row's date in SQL.
  const rows = await query(
    db,
    sql`select issue_date::text as day, type = 'avoir' as credit, count(*) as count,
               sum(total_ht) as ht, sum(total_tva) as tva, sum(total_ttc) as ttc
        ${billed(orgId, sql`and issue_date between ${from} and ${to}`)}
        group by issue_date, type = 'avoir'`,
  );
  const byMonth = new Map<string, Row>();
  const total: Row = {};
  for (const r of rows) {
    const month = String(r.day).slice(0, 7);
    const m = byMonth.get(month) ?? {};
    byMonth.set(month, m);
    const side = r.credit === true || r.credit === 't' ? 'credited' : 'invoiced';
    const count = side === 'credited' ? 'credit_note_count' : 'invoice_count';
    m[count] = n(m[count]) + n(r.count);
    for (const [key, column] of [['ht', 'ht'], ['tva', 'tva'], ['ttc', 'ttc']] as const) {
      m[`${side}_${key}`] = n(m[`${side}_${key}`]) + n(r[column]);
      // The total is the sum of the months (same range, same documents): no second scan.
      total[`${side}_${key}`] = n(total[`${side}_${key}`]) + n(r[column]);
    }
  }
  return {
    from,
    to,
    months: months.map((month) => {
      const r = byMonth.get(month);
      return { month, ...revenueOf(r), invoice_count: n(r?.invoice_count), credit_note_count: n(r?.credit_note_count) };
    }),
    total: revenueOf(total),
  };
}

export async function revenueByClient(db: Db, orgId: string, q: RevenueByClientQuery): Promise<RevenueByClient> {
  const to = q.to ?? todayParis();
  const from = q.from ?? startOfYear(to);
  const range = sql`and issue_date between ${from} and ${to}`;
  // The sums first (an index-only scan of documents_org_issued), then the names as invoiced of the clients kept.
  const rows = await query(
    db,
    sql`select contact_id, count(*) as document_count, ${billedSums}
        ${billed(orgId, range)}
        group by contact_id
        order by coalesce(sum(total_ht) filter (where type <> 'avoir'), 0) - coalesce(sum(total_ht) filter (where type = 'avoir'), 0) desc,
                 contact_id
        limit ${q.limit}`,
  );
  const ids = rows.map((r) => String(r.contact_id));
  const names = ids.length
    ? await query(
        db,
        sql`select distinct on (contact_id) contact_id, client_snapshot->>'name' as contact_name
            ${billed(orgId, range)} and contact_id in ${sql`(${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`}
            order by contact_id, chain_index desc`,
      )
    : [];
  const nameOf = new Map(names.map((r) => [String(r.contact_id), (r.contact_name as string | null) ?? null]));
  return {
    from,
    to,
    data: rows.map((r) => ({
      contact_id: String(r.contact_id),
      contact_name: nameOf.get(String(r.contact_id)) ?? null,
      ...revenueOf(r),
      document_count: n(r.document_count),
    })),
  };
}

export async function clientSummary(db: Db, orgId: string, contactId: string): Promise<ClientSummary> {
  const contact = await loadContactRow(db, orgId, contactId);
  if (!contact) throw notFound('Contact');
  const as_of = todayParis();
  const byContact = sql`and contact_id = ${contactId}`;
  const [sums] = await query(
    db,
    sql`select ${billedSums},
               to_char(min(issue_date) filter (where type <> 'avoir'), 'YYYY-MM-DD') as first_issue_date,
               to_char(max(issue_date) filter (where type <> 'avoir'), 'YYYY-MM-DD') as last_issue_date
        ${billed(orgId, byContact)}`,
  );
  const [quotes] = await query(
    db,
    sql`select count(*) as count,
               count(*) filter (where status in ('finalized', 'sent')) as open,
               count(*) filter (where status = 'accepted') as accepted,
               coalesce(sum(total_ht) filter (where status = 'accepted'), 0) as accepted_ht
        from documents where org_id = ${orgId} and type = 'devis' and finalized_at is not null ${byContact}`,
  );
  const [drafts] = await query(db, sql`select count(*) as count from documents where org_id = ${orgId} and status = 'draft' ${byContact}`);
  const [paid] = await query(
    db,
    sql`select count(*) as count, coalesce(sum(p.amount), 0) as amount
        from payments p join documents d on d.id = p.document_id
        where p.org_id = ${orgId} and d.org_id = ${orgId} and d.contact_id = ${contactId}`,
  );
  return {
    contact_id: contactId,
    contact_name: contactGone(contact) ? null : displayName(contact),
    as_of,
    drafts: { count: n(drafts?.count) },
    quotes: { count: n(quotes?.count), open: n(quotes?.open), accepted: n(quotes?.accepted), accepted_ht: n(quotes?.accepted_ht) },
    invoiced: amountsOf(sums, 'invoiced'),
    credited: amountsOf(sums, 'credited'),
    paid: { count: n(paid?.count), amount: n(paid?.amount) },
    ...(await balances(db, orgId, as_of, contactId)),
    first_issue_date: (sums?.first_issue_date as string | null) ?? null,
    last_issue_date: (sums?.last_issue_date as string | null) ?? null,
  };
}
