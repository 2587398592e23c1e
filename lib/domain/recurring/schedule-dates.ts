import type { RecurringFrequency } from '@/db/schema/recurring';

/** Months between two generations of each frequency. */
export const FREQUENCY_MONTHS: Readonly<Record<RecurringFrequency, number>> = { monthly: 1, quarterly: 3, yearly: 12 };

const pad = (n: number) => String(n).padStart(2, '0');
const daysInMonth = (year: number, month1: number) => new Date(Date.UTC(year, month1, 0)).getUTCDate();

/** The day of month a date aims at: its own (1–31). */
export const anchorDayOf = (day: string) => Number(day.slice(8, 10));

/**
 * The generation date after `day`: `frequency` months later, on the anchor day, or the month's last day when the month
 * is shorter (anchor 31: 31 Jan → 28/29 Feb → 31 Mar; anchor 29 yearly: 29 Feb 2028 → 28 Feb 2029 → … → 29 Feb 2032).
 * Calendar days only (Europe/Paris dates as strings): no time zone enters.
 */
export function nextGenerationDate(day: string, frequency: RecurringFrequency, anchorDay: number): string {
  const year = Number(day.slice(0, 4));
  const month0 = Number(day.slice(5, 7)) - 1 + FREQUENCY_MONTHS[frequency];
  const y = year + Math.floor(month0 / 12);
  const m1 = (month0 % 12) + 1;
  return `${y}-${pad(m1)}-${pad(Math.min(anchorDay, daysInMonth(y, m1)))}`;
}

/** The first generation date on or after `today`, stepping from `day` (reactivation: paused periods are not backfilled). */
export function firstDateOnOrAfter(day: string, frequency: RecurringFrequency, anchorDay: number, today: string): string {
  let d = day;
  while (d < today) d = nextGenerationDate(d, frequency, anchorDay);
  return d;
}
