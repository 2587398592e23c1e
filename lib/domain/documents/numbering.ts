import { and, eq } from 'drizzle-orm';
import { numberCounters } from '@/db/schema';
import type { DocumentType } from '@/db/schema/billing';
import type { Conn } from './documents';

/** BR-FR-01/02: an invoice number is at most 35 characters of A-Z a-z 0-9 + - _ /. */
export const NUMBER_PATTERN = /^[A-Za-z0-9+\-_/]{1,35}$/;

/** The migration finalize_path_only (billing_number_suffix) reads numbers this way: keep them in step. */
export const formatNumber = (prefix: string, year: number, n: number) => `${prefix}-${year}-${String(n).padStart(5, '0')}`;

const seriesKey = (orgId: string, type: DocumentType, year: number) =>
  and(eq(numberCounters.org_id, orgId), eq(numberCounters.type, type), eq(numberCounters.year, year));

/**
 * The number the series' next finalization would take, read without taking it (no lock, nothing written): what
 * GET /v1/invoices/{id}/validation checks a draft's e-invoice with. Another finalization may take it first.
 */
export async function peekNumber(conn: Conn, orgId: string, type: DocumentType, year: number, prefix: string): Promise<string> {
  const [counter] = await conn.select({ last: numberCounters.last_number }).from(numberCounters).where(seriesKey(orgId, type, year));
  return formatNumber(prefix, year, (counter?.last ?? 0) + 1);
}
