/**
 * The Europe/Paris wall clock, whatever the server's or the browser's time zone: pure, no import (client components
 * take it through lib/platform/dates/client.ts).
 */

const parisDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today (or the day of `now`) in Paris. */
export function todayParis(now: Date = new Date()): string {
  return parisDay.format(now);
}

const parisParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Paris wall-clock minus UTC at `instant`, in milliseconds (+1 h in winter, +2 h in summer). */
function parisOffsetMs(instant: number): number {
  const p = Object.fromEntries(parisParts.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The instant it is `hour`:`minute`:`second` in Paris on `day` (YYYY-MM-DD), whatever the season. */
export function parisInstant(day: string, hour: number, minute = 0, second = 0): Date {
  const naive = Date.parse(`${day}T${two(hour)}:${two(minute)}:${two(second)}Z`);
  // Two passes: the offset at the guess can differ from the offset at the answer around a DST change.
  const first = naive - parisOffsetMs(naive);
  return new Date(naive - parisOffsetMs(first));
}

/** The last instant of a Paris calendar day, as an RFC 3339 UTC timestamp. */
export const parisEndOfDay = (day: string): string => parisInstant(day, 23, 59, 59).toISOString();
