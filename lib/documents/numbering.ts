import { and, eq } from 'drizzle-orm';
import { numberCounters } from '@/db/schema';
import type { DocumentType } from '@/db/schema/billing';
import type { Conn } from './documents';

/** BR-FR-01/02: an invoice number is at most 35 characters of A-Z a-z 0-9 + - _ /. */
export const NUMBER_PATTERN = /^[A-Za-z0-9+\-_/]{1,35}$/;

export const formatNumber = (prefix: string, year: number, n: number) => `${prefix}-${year}-${String(n).padStart(5, '0')}`;

/**
 * The next number of the (org, type, year) series, inside the finalizing transaction. The counter row is
 * created if missing (ON CONFLICT DO NOTHING: a concurrent creator wins, nobody fails) and then locked
 * FOR UPDATE, so two finalizations never read the same last_number and a rolled-back one leaves no gap.
 */
export async function nextNumber(tx: Conn, orgId: string, type: DocumentType, year: number, prefix: string): Promise<string> {
  const key = and(eq(numberCounters.org_id, orgId), eq(numberCounters.type, type), eq(numberCounters.year, year));
  await tx.insert(numberCounters).values({ org_id: orgId, type, year, last_number: 0 }).onConflictDoNothing();
  const [counter] = await tx.select().from(numberCounters).where(key).for('update');
  const n = counter!.last_number + 1;
  await tx.update(numberCounters).set({ last_number: n }).where(key);
  const number = formatNumber(prefix, year, n);
  if (!NUMBER_PATTERN.test(number)) throw new Error(`number ${number} breaks the e-invoicing format`);
  return number;
}
