import { z } from 'zod';
import { REMINDER_KINDS, REMINDER_STATUSES, REMINDER_TONES } from '@/db/schema/reminders';
import { IsoDate, pageOf, PathId, text, Timestamp } from '@/lib/platform/contract';
import { PageQuery } from '@/lib/platform/http';

// ─── Reminders ──────────────────────────────────────────────────────────────

export const Reminder = z
  .object({
    id: z.uuid().meta({ description: 'The reminder’s id.' }),
    document_id: z.uuid().meta({ description: 'The invoice, deposit invoice or quote reminded.' }),
    kind: z.enum(REMINDER_KINDS).meta({ description: 'payment or quote_expiry (a ladder step armed on send), or manual.' }),
    step: z.number().int().nullable().meta({ description: '0-based place in the ladder; null for a manual reminder.' }),
    offset_days: z.number().int().nullable().meta({ description: 'Days from the due date (validity date of a quote); null for manual.' }),
    scheduled_at: Timestamp,
    status: z.enum(REMINDER_STATUSES).meta({ description: 'pending, sent, cancelled or skipped.' }),
    tone: z
      .enum(REMINDER_TONES)
      .nullable()
      .meta({ description: 'Payment reminders: gentle, firm or final; null for quotes, and for a manual one until it goes out (chosen by date).' }),
    message: z.string().nullable().meta({ description: 'Your own words for a manual reminder; null otherwise.' }),
    reason: z.string().nullable().meta({
      description:
        'Why it was skipped or cancelled: past_at_send, opted_out, no_recipient, nothing_due, quote_lapsed, document_<status>, deleted, failed.',
    }),
    sent_at: Timestamp.nullable(),
    email_id: z.uuid().nullable().meta({ description: 'The e-mail queued for it (its delivery status is in the mail log).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Reminder' });
export type Reminder = z.infer<typeof Reminder>;

export const ReminderList = pageOf(Reminder, 'ReminderList');

/** limit (1–100, default 50) and cursor, as every list; any other parameter is a 422 naming it. */
export const ReminderListQuery = z.strictObject(PageQuery.shape);

export const MAX_SCHEDULE_DAYS = 366;

export const ReminderCreate = z
  .strictObject({
    scheduled_at: z.iso
      .datetime({ offset: true, error: 'must be an RFC 3339 timestamp' })
      .nullish()
      .meta({ description: `When to send it; omitted or null: now (within the minute). Not in the past, at most ${MAX_SCHEDULE_DAYS} days ahead.` }),
    message: text(5000).meta({ description: 'Your own words, quoted in the e-mail as written.' }),
    tone: z
      .enum(REMINDER_TONES, { error: 'must be gentle, firm or final' })
      .nullish()
      .meta({ description: 'Payment reminders only: the voice of the e-mail; omitted: gentle up to the due date, firm after it.' }),
  })
  .meta({ id: 'ReminderCreate' });
export type ReminderCreate = z.output<typeof ReminderCreate>;

export const ReminderParams = z.object({ id: PathId, reminder_id: PathId.meta({ description: 'The reminder’s id.' }) });

/** For the calls that take no query parameter: an unknown one is a 422 naming it, not silently ignored. */
export const NoQuery = z.strictObject({});

// ─── Tracking ───────────────────────────────────────────────────────────────

export const TRACKING_ROWS = 20;

export const TrackingRow = z
  .object({
    document_id: z.uuid().meta({ description: 'The invoice or deposit invoice.' }),
    number: z.string().nullable().meta({ description: 'Its number; null when none.' }),
    contact_name: z.string().nullable().meta({ description: 'The client as invoiced; null when the contact was deleted or erased.' }),
    due_date: IsoDate.nullable(),
    days_overdue: z.int32().min(0).meta({ format: 'int32', description: 'Days past the due date (Europe/Paris), floored at 0.' }),
    total_ttc_cents: z.int().meta({ format: 'int64', description: 'Total including VAT, in cents.' }),
    balance_cents: z.int().positive().meta({ format: 'int64', description: 'total_ttc − payments − its finalized credit note; always > 0 here.' }),
    sent_count: z.int().min(0).meta({ format: 'int64', description: 'Reminders already sent (manual ones included).' }),
    pending_count: z.int().min(0).meta({ format: 'int64', description: 'Reminders still pending (manual ones included).' }),
    next_at: Timestamp.nullable().meta({ description: 'The next pending reminder; null when none is pending.' }),
    exhausted: z.boolean().meta({ description: 'Nothing pending any more and some step came (sent, or skipped), the document still unpaid.' }),
  })
  .meta({ id: 'ReminderTrackingRow' });
export type TrackingRow = z.infer<typeof TrackingRow>;

export const Tracking = z
  .object({ items: z.array(TrackingRow).max(TRACKING_ROWS).meta({ description: 'The unpaid documents being reminded, and every overdue one, most urgent first.' }) })
  .meta({ id: 'ReminderTracking', description: `At most ${TRACKING_ROWS} rows, most urgent first.` });
export type Tracking = z.infer<typeof Tracking>;
