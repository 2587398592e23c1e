import { and, eq } from 'drizzle-orm';
import { numberCounters } from '@/db/schema';
import type { DocumentType } from '@/db/schema/billing';
import type { Conn } from './documents';

/** BR-FR-01/02: an invoice number is at most 35 characters of A-Z a-z 0-9 + - _ /. */
export const NUMBER_PATTERN = /^[A-Za-z0-9+\-_/]{1,35}$/;

/** The migration finalize_path_only (billing_number_suffix) reads numbers this way: keep them in step. */
export const formatNumber = (prefix: string, year: number, n: number) => `${prefix}-${year}-${String(n).padStart(5, '0')}`;

/** A number taken by a finalization, written to its series' counter by `recordNumber`. */
export interface NumberTaken {
  number: string;
  type: DocumentType;
  year: number;
  sequence: number;
}

const seriesKey = (orgId: string, type: DocumentType, year: number) =>
  and(eq(numberCounters.org_id, orgId), eq(numberCounters.type, type), eq(numberCounters.year, year));

/**
 * The next number of the (org, type, year) series, inside the finalizing transaction. The counter row is
 * created if missing (ON CONFLICT DO NOTHING: a concurrent creator wins, nobody fails) and then locked
 * FOR UPDATE until the commit, so two finalizations never read the same last_number and a rolled-back one
 * leaves no gap. The counter itself moves in `recordNumber`.
 */
export async function nextNumber(tx: Conn, orgId: string, type: DocumentType, year: number, prefix: string): Promise<NumberTaken> {
  await tx.insert(numberCounters).values({ org_id: orgId, type, year, last_number: 0 }).onConflictDoNothing();
  const [counter] = await tx.select().from(numberCounters).where(seriesKey(orgId, type, year)).for('update');
  return numberAfter(counter!.last_number, type, year, prefix);
}

/** The number that follows `last` in its series (the counter locked by the caller). */
export function numberAfter(last: number, type: DocumentType, year: number, prefix: string): NumberTaken {
  const sequence = last + 1;
  const number = formatNumber(prefix, year, sequence);
  if (!NUMBER_PATTERN.test(number)) throw new Error(`number ${number} breaks the e-invoicing format`);
  return { number, type, year, sequence };
}

/**
 * The number the series' next finalization would take, read without taking it (no lock, nothing written): what
 * GET /v1/invoices/{id}/validation checks a draft's e-invoice with. Another finalization may take it first.
 */
export async function peekNumber(conn: Conn, orgId: string, type: DocumentType, year: number, prefix: string): Promise<string> {
  const [counter] = await conn.select({ last: numberCounters.last_number }).from(numberCounters).where(seriesKey(orgId, type, year));
  return formatNumber(prefix, year, (counter?.last ?? 0) + 1);
}

/**
 * Advances the series' counter to the number taken. Last step of a finalization: the database accepts a counter
 * that moves by one, to the number of the document heading the org's chain, and nothing else (number_counters_finalize_only).
 */
export async function recordNumber(tx: Conn, orgId: string, taken: NumberTaken): Promise<void> {
  await tx.update(numberCounters).set({ last_number: taken.sequence }).where(seriesKey(orgId, taken.type, taken.year));
}
