import { and, eq, ne } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { documents } from '@/db/schema';
import type { DocumentStatus } from '@/db/schema/billing';
import { conflict } from '@/lib/platform/errors';
import { type ActionFacts, allowedActions, type DocumentAction, FACTS_READ } from './allowed-actions';
import { todayParis } from '@/lib/platform/dates';
import type { Conn, DocumentRow } from './documents';

/*
 * The API's side of the state machine: the rules are the pure allowedActions (allowed-actions.ts); here are the
 * facts it needs, read from the database, the check each service makes before acting, and the status write.
 */
export { OPEN_QUOTE_STATUSES, PAYABLE_STATUSES, pastValidity } from './allowed-actions';

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

/** The live (not cancelled) credit note of an invoice, locked. */
export async function creditNoteOf(conn: Conn, orgId: string, invoiceId: string): Promise<DocumentRow | null> {
  const [row] = await conn
    .select()
    .from(documents)
    .where(and(eq(documents.org_id, orgId), eq(documents.avoir_for_id, invoiceId), ne(documents.status, 'cancelled')))
    .for('update');
  return row ?? null;
}

/**
 * The facts `action` reads about `doc` (FACTS_READ), from the database; the others are left null. A fact that
 * cannot exist in the document's state is not looked up: a draft quote has no conversion, a draft invoice no
 * credit note, and only a draft deposit cares whether its quote was converted.
 */
export async function loadActionFacts(conn: Conn, orgId: string, doc: DocumentRow, action: DocumentAction, today = todayParis()): Promise<ActionFacts> {
  const reads = FACTS_READ[action];
  const billed = doc.type === 'facture' || doc.type === 'acompte';
  return {
    today,
    conversion: reads.includes('conversion') && doc.type === 'devis' && doc.finalized_at ? await conversionOf(conn, orgId, doc.id) : null,
    quoteConversion:
      reads.includes('quoteConversion') && doc.type === 'acompte' && doc.parent_devis_id && !doc.finalized_at
        ? await conversionOf(conn, orgId, doc.parent_devis_id)
        : null,
    creditNote: reads.includes('creditNote') && billed && doc.finalized_at ? await creditNoteOf(conn, orgId, doc.id) : null,
  };
}

/** Throws the 409 the state machine answers when `action` is not allowed on `doc` now. */
export async function assertAllowed(conn: Conn, orgId: string, doc: DocumentRow, action: DocumentAction, today?: string): Promise<void> {
  const refusal = allowedActions(doc, await loadActionFacts(conn, orgId, doc, action, today))[action];
  if (refusal) throw conflict(refusal.code, refusal.message);
}

/** The one rule of a status write: the status, stamped (status_changed_at) when it changes; updated_at always. */
function stamped(row: DocumentRow, status: DocumentStatus, now: Date) {
  return { status, updated_at: now, ...(status !== row.status ? { status_changed_at: now } : {}) };
}

/** Writes `set` and the stamped status; answers the new row with what `row` carried besides (its states). */
async function writeStatus<R extends DocumentRow>(tx: Tx, orgId: string, row: R, status: DocumentStatus, now: Date, set: Partial<DocumentRow> = {}): Promise<R> {
  const [updated] = await tx
    .update(documents)
    .set({ ...set, ...stamped(row, status, now) })
    .where(and(eq(documents.org_id, orgId), eq(documents.id, row.id)))
    .returning();
  return { ...row, ...updated! };
}

/** Moves a document to `status` (stamping when it changed) and answers the new row. */
export async function setStatus<R extends DocumentRow>(tx: Tx, orgId: string, row: R, status: DocumentStatus, now = new Date()): Promise<R> {
  if (row.status === status) return row;
  return writeStatus(tx, orgId, row, status, now);
}

/**
 * A document e-mailed to its client (lib/domain/sending, under the document's lock): a `finalized` one becomes `sent`
 * (other statuses stay: a paid invoice or an accepted quote can be sent again), `sent_at` is set on the first send.
 */
export async function markSent<R extends DocumentRow>(tx: Tx, orgId: string, row: R, now = new Date()): Promise<R> {
  return writeStatus(tx, orgId, row, row.status === 'finalized' ? 'sent' : row.status, now, { sent_at: row.sent_at ?? now });
}
