import type { DocumentType } from '@/db/schema/billing';
import { addDays, daysBetween, type HolidayOptions, nextWorkingDay, parisInstant as parisTime } from '@/lib/platform/dates';
import { type ReminderTone, reminderTone } from '@/lib/platform/email';

/**
 * Reminder ladders: day offsets relative to an anchor date, kept in the invoice settings (lib/domain/invoice-settings). The payment
 * ladder is anchored on the due date of an invoice or deposit invoice, the quote-expiry ladder on the validity date
 * of a quote. This module is pure (no database): the schedule of a ladder and the tone of its steps.
 */
/** The hour (Europe/Paris) a ladder step goes out on its day: business hours, not midnight. */
export const REMINDER_HOUR_PARIS = 9;

export type LadderKind = 'payment' | 'quote_expiry';

/** Which ladder chases a document type, and on which date: none for a credit note. */
export function ladderKindOf(type: DocumentType): LadderKind | null {
  if (type === 'facture' || type === 'acompte') return 'payment';
  if (type === 'devis') return 'quote_expiry';
  return null;
}

/** The instant it is `hour`:`minute` in Paris on `day` (YYYY-MM-DD): by default the hour a ladder step goes out. */
export const parisInstant = (day: string, hour = REMINDER_HOUR_PARIS, minute = 0): Date => parisTime(day, hour, minute);

export interface LadderStep {
  step: number;
  offset_days: number;
  scheduled_at: Date;
  /** Already past when the ladder is armed: recorded as skipped, never sent. */
  past: boolean;
}

/**
 * The steps of a ladder anchored on `anchorDay`, each at REMINDER_HOUR_PARIS on its day — never a Sunday nor a French
 * public holiday: such a step goes on the next working day, and a step moved onto the day of the step before it goes
 * to the working day after that one, so that two reminders never leave the same day. `holidays.alsaceMoselle` (the
 * org's setting) adds Good Friday and 26 December to the days skipped.
 */
export function ladderSteps(offsetDays: readonly number[], anchorDay: string, now: Date, holidays: HolidayOptions = {}): LadderStep[] {
  let previous: string | null = null;
  return offsetDays.map((offset_days, step) => {
    let day = nextWorkingDay(addDays(anchorDay, offset_days), holidays);
    if (previous !== null && day <= previous) day = nextWorkingDay(addDays(previous, 1), holidays);
    previous = day;
    const scheduled_at = parisInstant(day);
    return { step, offset_days, scheduled_at, past: scheduled_at.getTime() <= now.getTime() };
  });
}

/**
 * The tone of a manual payment reminder that staff left to us: by the day it goes out (gentle up to the due date,
 * firm after it). Ladder steps get theirs when armed (lib/domain/reminders/arm-ladder.ts): gentle, firm, final at the last.
 */
export function manualTone(dueDate: string, today: string): ReminderTone {
  return reminderTone(daysBetween(dueDate, today), false);
}
