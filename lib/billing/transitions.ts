import type { Tx } from '@/db/client';
import { and, eq, ne } from 'drizzle-orm';
import { documents } from '@/db/schema';
import { conflict } from '@/lib/errors';
import type { DocumentStatus } from '@/db/schema/billing';
import type { Conn, DocumentRow } from './documents';

/**
 * The state machine of DESIGN §4, in one place:
 *   draft → finalized → sent → paid (invoices and deposits; payments move sent ↔ paid)
 *   quotes: finalized | sent → accepted | rejected | expired
 *   any non-terminal status → cancelled
 * Terminal: paid, cancelled, rejected, expired, an accepted quote once converted, and a finalized credit
 * note (it is itself the correction; a numbered document is never erased).
 */
export const OPEN_QUOTE_STATUSES: DocumentStatus[] = ['finalized', 'sent'];
export const PAYABLE_STATUSES: DocumentStatus[] = ['finalized', 'sent', 'paid'];

/** The invoice converted from a quote, unless that conversion was cancelled. */
export async function conversionOf(conn: Conn, orgId: string, quoteId: string): Promise<DocumentRow | null> {
  const [row] = await conn
    .select()
    .from(documents)
    .where(
      and(eq(documents.org_id, orgId), eq(documents.converted_from_id, quoteId), eq(documents.type, 'facture'), ne(documents.status, 'cancelled')),
    )
    .limit(1);
  return row ?? null;
}

/** A quote past its validity date is expired even before the daily job records it. */
export const pastValidity = (row: DocumentRow, today: string) =>
  row.type === 'devis' && row.validity_date !== null && row.validity_date < today && OPEN_QUOTE_STATUSES.includes(row.status);

/** Why a document cannot be cancelled, or null when it can. */
export async function cancelRefusal(conn: Conn, orgId: string, row: DocumentRow): Promise<string | null> {
  if (['paid', 'cancelled', 'rejected', 'expired'].includes(row.status)) return `this document is ${row.status}`;
  if (row.type === 'avoir' && row.finalized_at) return 'a finalized credit note cannot be cancelled';
  if (row.type === 'devis' && row.status === 'accepted') {
    const invoice = await conversionOf(conn, orgId, row.id);
    if (invoice) return `this quote was accepted and converted into invoice ${invoice.number ?? invoice.id}`;
  }
  return null;
}

/** Moves a document to `status` (stamping when it changed) and answers the new row. */
export async function setStatus(tx: Tx, orgId: string, row: DocumentRow, status: DocumentStatus, now = new Date()): Promise<DocumentRow> {
  if (row.status === status) return row;
  const [updated] = await tx
    .update(documents)
    .set({ status, status_changed_at: now, updated_at: now })
    .where(and(eq(documents.org_id, orgId), eq(documents.id, row.id)))
    .returning();
  return updated!;
}

/**
 * A quote may be converted (into the invoice, or a share of it into a deposit invoice) when it is finalized,
 * sent or accepted, within its validity, and not converted already; otherwise 409 not_convertible.
 */
export async function assertConvertible(conn: Conn, orgId: string, quote: DocumentRow, today: string) {
  const refuse = (why: string) => {
    throw conflict('not_convertible', `This document cannot be converted: ${why}.`);
  };
  if (quote.type !== 'devis') refuse(`it is not a quote (${quote.type})`);
  if (quote.status === 'draft') refuse('the quote is a draft; finalize it first');
  if (!['finalized', 'sent', 'accepted'].includes(quote.status)) refuse(`the quote is ${quote.status}`);
  // Once accepted, the validity date has done its job: only an open quote can lapse.
  if (pastValidity(quote, today)) refuse(`the quote expired after ${quote.validity_date}`);
  const invoice = await conversionOf(conn, orgId, quote.id);
  if (invoice) refuse(`the quote was already converted into invoice ${invoice.number ?? invoice.id}`);
}
