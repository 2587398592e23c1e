import { z } from 'zod';
import { endOfMonth, todayParis } from '@/lib/platform/dates';

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
