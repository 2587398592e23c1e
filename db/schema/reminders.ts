import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents } from './billing';
import { createdAt, id, updatedAt } from './columns';
import { orgs } from './orgs';

export const REMINDER_KINDS = ['payment', 'quote_expiry', 'manual'] as const;
export const REMINDER_STATUSES = ['pending', 'sent', 'cancelled', 'skipped'] as const;
export const REMINDER_TONES = ['gentle', 'firm', 'final'] as const;

export type ReminderKind = (typeof REMINDER_KINDS)[number];
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

/**
 * One reminder e-mail of a document: a step of its ladder (payment or quote_expiry, armed when the document is
 * sent) or a manual one (staff, now or at a time). `pending` until the dispatcher claims it at `scheduled_at`;
 * then `sent` (with the e-mail it queued), `skipped` (past when armed, client opted out, no address) or
 * `cancelled` (the document was settled: trigger `reminders_follow_document_status`; or staff deleted it).
 */
export const reminders = pgTable(
  'reminders',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    document_id: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REMINDER_KINDS }).notNull(),
    /** 0-based place in the ladder; null for a manual reminder. */
    step: integer('step'),
    /** Days from the anchor date (due date, or validity date of a quote); null for a manual reminder. */
    offset_days: integer('offset_days'),
    scheduled_at: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: REMINDER_STATUSES }).notNull().default('pending'),
    /** Payment reminders: the voice of the e-mail; null = chosen when it goes out (manual). Null for quotes. */
    tone: text('tone', { enum: REMINDER_TONES }),
    /** Manual reminders: the sender's own words, quoted in the e-mail. */
    message: text('message'),
    /** Why it was skipped or cancelled (past_at_send, opted_out, no_recipient, document_paid, deleted…). */
    reason: text('reason'),
    /** Dispatch attempts that failed unexpectedly (the step is skipped after a few); last_error keeps the last. */
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    /** The e-mail record the dispatcher queued for it (lib/platform/email: its delivery status lives there). */
    email_id: uuid('email_id'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    // The dispatcher's queue: due steps across every org, oldest first.
    index('reminders_due').on(t.scheduled_at).where(sql`${t.status} = 'pending'`),
    // A document's ladder; also the cascade from documents and the ladder-state refresh.
    index('reminders_document').on(t.document_id, t.scheduled_at),
    index('reminders_org').on(t.org_id),
  ],
);

/**
 * The ladder state of each document that has reminders, kept by triggers on `reminders` and `documents`
 * (migration reminders_triggers), never written by the code: what the tracking view sorts on. `due_date` is
 * the document's (frozen once finalized); `open` is true while the document is an invoice or deposit invoice in
 * finalized or sent; `exhausted` while nothing is pending and some step has come and gone (sent or skipped).
 */
export const reminderLadders = pgTable(
  'reminder_ladders',
  {
    document_id: uuid('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    due_date: date('due_date', { mode: 'string' }),
    open: boolean('open').notNull(),
    sent_count: bigint('sent_count', { mode: 'number' }).notNull(),
    pending_count: bigint('pending_count', { mode: 'number' }).notNull(),
    skipped_count: bigint('skipped_count', { mode: 'number' }).notNull(),
    next_at: timestamp('next_at', { withTimezone: true }),
    exhausted: boolean('exhausted').generatedAlwaysAs(sql`pending_count = 0 and sent_count + skipped_count > 0`),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Tracking: exhausted first, then by due date (overdue), then next reminder.
    index('reminder_ladders_tracking').on(t.org_id, t.exhausted, t.due_date, t.next_at, t.document_id).where(sql`${t.open}`),
    // Tracking, documents not overdue yet: soonest next reminder first.
    index('reminder_ladders_next').on(t.org_id, t.next_at, t.document_id).where(sql`${t.open} and not ${t.exhausted}`),
  ],
);
