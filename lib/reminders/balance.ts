import { type SQL, sql } from 'drizzle-orm';

/**
 * What is still owed on an invoice or deposit invoice, as the statistics count it: total_ttc minus its payments
 * minus its finalized credit note. `d` is the SQL alias of the documents row. ("status <> 'cancelled'" is always
 * true of a finalized credit note; it lets the lookup use the partial unique index on avoir_for_id.)
 */
export const balanceSql = (d: SQL): SQL => sql`(${d}.total_ttc
  - coalesce((select sum(p.amount) from payments p where p.org_id = ${d}.org_id and p.document_id = ${d}.id), 0)
  - coalesce((select sum(c.total_ttc) from documents c
              where c.avoir_for_id = ${d}.id and c.status <> 'cancelled' and c.finalized_at is not null and c.org_id = ${d}.org_id), 0))`;
