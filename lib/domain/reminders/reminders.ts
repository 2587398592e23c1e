import { and, asc, count, desc, eq, inArray, min } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { reminders } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { type DocumentRow, loadContactRow, loadDocument, pastValidity } from '@/lib/domain/documents';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { afterCursor, type Page, type PageQuery, toPage } from '@/lib/platform/http';
import { armLadder, CHASED_STATUSES } from './arm-ladder';
import { ladderKindOf } from './ladder';
import { MAX_SCHEDULE_DAYS, type Reminder, type ReminderCreate } from './schemas';

export type ReminderRow = typeof reminders.$inferSelect;

/** Pending manual reminders a document may have at once. */
export const MAX_PENDING_MANUAL = 10;
/** A manual reminder "now" is taken up to this long after the request's clock (a client's clock may lag). */
const PAST_TOLERANCE_MS = 5 * 60_000;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toPublicReminder(row: ReminderRow): Reminder {
  return {
    id: row.id,
    document_id: row.document_id,
    kind: row.kind,
    step: row.step,
    offset_days: row.offset_days,
    scheduled_at: row.scheduled_at.toISOString(),
    status: row.status,
    tone: row.tone,
    message: row.message,
    reason: row.reason,
    sent_at: iso(row.sent_at),
    email_id: row.email_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * GET /v1/invoices/{id}/reminders: a document's reminders (ladder steps and manual ones, every status) as every list
 * of the API answers, newest first and cursor-paginated (`limit` 1–100, default 50).
 */
export async function listReminders(db: Db, orgId: string, documentId: string, query: PageQuery): Promise<Page<Reminder>> {
  const doc = await loadDocument(db, orgId, documentId);
  const rows = await db
    .select()
    .from(reminders)
    .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), afterCursor(reminders.id, query.cursor)))
    .orderBy(desc(reminders.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicReminder);
}

/** The back-office's view of a document's reminders: the whole ladder in schedule order, manual ones in between. */
export async function reminderLadder(db: Db, orgId: string, documentId: string): Promise<Reminder[]> {
  const doc = await loadDocument(db, orgId, documentId);
  const rows = await db
    .select()
    .from(reminders)
    .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id)))
    .orderBy(asc(reminders.scheduled_at), asc(reminders.id));
  return rows.map(toPublicReminder);
}

/** Why a document cannot get a reminder now (the 409 it answers), or null when it can. */
export function remindRefusal(doc: DocumentRow, today: string): { code: string; message: string } | null {
  const refuse = (why: string) => ({ code: 'not_remindable', message: `No reminder can be added: ${why}.` });
  if (doc.status === 'draft') return { code: 'not_finalized', message: 'A draft is not chased: finalize and send it first.' };
  const kind = ladderKindOf(doc.type);
  if (!kind) return refuse('a credit note is not chased');
  if (pastValidity(doc, today)) return refuse(`the quote expired after ${doc.validity_date}`);
  if (!(CHASED_STATUSES[kind] as readonly string[]).includes(doc.status)) return refuse(`the document is ${doc.status}`);
  if (kind === 'payment' && !doc.due_date) return refuse('the invoice has no due date');
  if (kind === 'quote_expiry' && !doc.validity_date) return refuse('the quote has no validity date');
  return null;
}

/**
 * POST /v1/invoices/{id}/reminders: a manual reminder, now (the dispatcher sends it within the minute) or at
 * `scheduled_at`. A payment reminder for an invoice or deposit invoice (its tone chosen here, or by the day it
 * goes out), a quote-expiry reminder for a quote. Refused for a client who opted out of reminders.
 */
export async function addManualReminder(db: Db, orgId: string, documentId: string, input: Partial<ReminderCreate>, now = new Date()): Promise<Reminder> {
  const at = input.scheduled_at ? new Date(input.scheduled_at) : now;
  if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) throw validationError('scheduled_at', 'scheduled_at: must not be in the past (omit it to send now)');
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * 86_400_000) {
    throw validationError('scheduled_at', `scheduled_at: at most ${MAX_SCHEDULE_DAYS} days ahead`);
  }
  return db.transaction(async (tx) => {
    // Locked like a send: the ladder state of the document changes one transaction at a time.
    const doc = await loadDocument(tx, orgId, documentId, true);
    const refusal = remindRefusal(doc, todayParis(now));
    if (refusal) throw conflict(refusal.code, refusal.message);
    if (input.tone && ladderKindOf(doc.type) !== 'payment') throw validationError('tone', 'tone: only a payment reminder has a tone');
    const contact = await loadContactRow(tx, orgId, doc.contact_id);
    if (contact?.reminder_opt_out) throw conflict('reminder_opt_out', 'This client opted out of reminder e-mails (contact reminder_opt_out).');
    const [pending] = await tx
      .select({ n: count() })
      .from(reminders)
      .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), eq(reminders.kind, 'manual'), eq(reminders.status, 'pending')));
    if ((pending?.n ?? 0) >= MAX_PENDING_MANUAL) {
      throw conflict('too_many_reminders', `This document already has ${MAX_PENDING_MANUAL} manual reminders waiting; delete one first.`);
    }
    const [row] = await tx
      .insert(reminders)
      .values({
        org_id: orgId,
        document_id: doc.id,
        kind: 'manual',
        scheduled_at: at.getTime() < now.getTime() ? now : at,
        tone: input.tone ?? null,
        message: input.message ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning();
    return toPublicReminder(row!);
  });
}

/** DELETE …/reminders/{reminder_id}: a pending reminder is cancelled (kept, reason deleted); any other is 409. */
export async function deleteReminder(db: Db, orgId: string, documentId: string, reminderId: string, now = new Date()): Promise<Reminder> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    // Waits for a dispatcher that holds it, then sees what it made of it.
    const [row] = await tx
      .select()
      .from(reminders)
      .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), eq(reminders.id, reminderId)))
      .for('update');
    if (!row) throw notFound('Reminder');
    if (row.status !== 'pending') throw conflict('reminder_not_pending', `This reminder is ${row.status}: only a pending reminder can be deleted.`);
    const [cancelled] = await tx
      .update(reminders)
      .set({ status: 'cancelled', reason: 'deleted', updated_at: now })
      .where(eq(reminders.id, row.id))
      .returning();
    return toPublicReminder(cancelled!);
  });
}

/** What « Programmer les relances » armed: the pending steps, and the first of them (null when none is pending). */
export interface ScheduledLadder {
  scheduled: number;
  next_at: string | null;
}

/**
 * « Programmer les relances » (À relancer): arms the org's ladder on an issued document that has none — an invoice
 * never sent by e-mail, or sent when its ladder was empty — exactly as a send arms it (armLadder, the document row
 * locked): steps already past are recorded skipped (past_at_send), the others pending. Refused as a manual reminder
 * is (draft, credit note, settled, no due date), and with 409 ladder_exists when it already has ladder steps (of any
 * status: a ladder is never doubled). A client who opted out gets the ladder too, each step skipped when it comes, as
 * at sending. `scheduled` 0 with steps recorded: the whole ladder was already past (the document reads exhausted).
 */
export async function scheduleLadder(db: Db, orgId: string, documentId: string, now = new Date()): Promise<ScheduledLadder> {
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    const refusal = remindRefusal(doc, todayParis(now));
    if (refusal) throw conflict(refusal.code, refusal.message);
    const [ladder] = await tx
      .select({ id: reminders.id })
      .from(reminders)
      .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), inArray(reminders.kind, ['payment', 'quote_expiry'])))
      .limit(1);
    if (ladder) throw conflict('ladder_exists', 'This document already has its reminder ladder: add a manual reminder instead.');
    const scheduled = await armLadder(tx, orgId, doc, now);
    const [next] = await tx
      .select({ at: min(reminders.scheduled_at) })
      .from(reminders)
      .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), eq(reminders.status, 'pending')));
    return { scheduled, next_at: next?.at ? new Date(next.at).toISOString() : null };
  });
}
