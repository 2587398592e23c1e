import { z } from 'zod';
import { addDays, endOfMonth, todayParis } from '@/lib/platform/dates';

const Day = z.iso.date();

/** A period of Europe/Paris calendar days, both ends included: what every export covers. */
export const Period = z
  .object({ from: Day, to: Day })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] });
export type Period = z.infer<typeof Period>;

/** The current month in Paris, from its first day to its last. */
export function currentMonth(today: string = todayParis()): Period {
  return { from: `${today.slice(0, 7)}-01`, to: endOfMonth(today) };
}

/** The first day of the month `months` months from the month of `day` (negative: before). */
function monthStart(day: string, months: number): string {
  const index = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** The months from the month of `start` over `length` months, as a period. */
const months = (start: string, length: number): Period => ({ from: start, to: addDays(monthStart(start, length), -1) });

export const PERIOD_PRESETS = [
  { key: 'this-month', label: 'Ce mois' },
  { key: 'last-month', label: 'Mois dernier' },
  { key: 'this-quarter', label: 'Ce trimestre' },
  { key: 'last-quarter', label: 'Trimestre dernier' },
  { key: 'this-year', label: 'Cette année' },
  { key: 'last-year', label: 'Année dernière' },
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]['key'];

/**
 * The period of a preset, on the Paris calendar of `today` (todayParis: a quarter starts on 1 October at 00:00 Paris,
 * not UTC). Calendar quarters and years: a fiscal year that is not the calendar's is chosen with from/to.
 */
export function presetPeriod(preset: PeriodPreset, today: string = todayParis()): Period {
  const month = monthStart(today, 0);
  const quarter = monthStart(today, -((Number(today.slice(5, 7)) - 1) % 3));
  const year = `${today.slice(0, 4)}-01-01`;
  switch (preset) {
    case 'this-month':
      return months(month, 1);
    case 'last-month':
      return months(monthStart(month, -1), 1);
    case 'this-quarter':
      return months(quarter, 3);
    case 'last-quarter':
      return months(monthStart(quarter, -3), 3);
    case 'this-year':
      return months(year, 12);
    case 'last-year':
      return months(monthStart(year, -12), 12);
  }
}

/** The preset a period is, if any (the screen marks it as chosen). */
export const presetOf = (period: Period, today: string = todayParis()): PeriodPreset | null =>
  PERIOD_PRESETS.find((p) => {
    const q = presetPeriod(p.key, today);
    return q.from === period.from && q.to === period.to;
  })?.key ?? null;
