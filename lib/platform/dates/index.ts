import joursFeries from '@socialgouv/jours-feries';
/**
 * Calendar days (YYYY-MM-DD) in Europe/Paris: an invoice is dated by the French calendar, whatever the
 * server's time zone. Arithmetic is done on UTC midnights, where every day has 24 hours.
 */

export { parisEndOfDay, parisInstant, todayParis } from './paris';

const DAY_MS = 86_400_000;
const toUtc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return fromUtc(toUtc(day) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

export function endOfMonth(day: string): string {
  const d = new Date(toUtc(day));
  return fromUtc(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

export const yearOf = (day: string) => Number(day.slice(0, 4));

/** Absent terms: the legal default of 30 days (Code de commerce L441-10). */
export const DEFAULT_PAYMENT_DAYS = 30;

/**
 * The due date that payment terms written in words imply: "à réception" / "comptant" → the issue date;
 * "45 jours fin de mois" → end of the month after 45 days; "30 jours" / "net 30" / "60 days" → that many
 * days. Terms that say none of these (or no terms) give the legal default of 30 days.
 */
export function dueDateFromTerms(issueDate: string, terms: string | null | undefined): string {
  const t = (terms ?? '').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  if (/\b(a reception|des reception|upon receipt|on receipt|comptant|immediat)/.test(t)) return issueDate;
  const days = /(\d{1,3})\s*(?:jours?|j\b|days?\b)/.exec(t) ?? /\bnet\s*(\d{1,3})\b/.exec(t);
  if (!days) return addDays(issueDate, DEFAULT_PAYMENT_DAYS);
  const after = addDays(issueDate, Number(days[1]));
  return /fin de mois|end of (the )?month|\bfdm\b|\beom\b/.test(t) ? endOfMonth(after) : after;
}

// ─── Working days ────────────────────────────────────────────────────────────

/*
 * French public holidays (the eleven of the Code du travail, L3133-1), from @socialgouv/jours-feries (SocialGouv,
 * Apache-2.0). Alsace-Moselle's two more days (Good Friday, 26 December) count only when asked for.
 */

export interface HolidayOptions {
  /** Also Good Friday and Saint Stephen's day, public holidays in Moselle, Bas-Rhin and Haut-Rhin only. */
  alsaceMoselle?: boolean;
}

const cache = new Map<string, Set<string>>();

/** The holidays of a year as YYYY-MM-DD days. */
function holidaysOf(year: number, { alsaceMoselle = false }: HolidayOptions): Set<string> {
  const key = `${year}:${alsaceMoselle}`;
  let days = cache.get(key);
  if (!days) {
    // The library gives local midnights computed by adding 24-hour days: noon of the same instant is always the day.
    const dayOf = (d: Date) => {
      const noon = new Date(d.getTime() + 12 * 3_600_000);
      return `${noon.getFullYear()}-${String(noon.getMonth() + 1).padStart(2, '0')}-${String(noon.getDate()).padStart(2, '0')}`;
    };
    days = new Set(Object.values(joursFeries(year, { alsace: alsaceMoselle })).map(dayOf));
    cache.set(key, days);
  }
  return days;
}

export const isFrenchPublicHoliday = (day: string, options: HolidayOptions = {}) => holidaysOf(yearOf(day), options).has(day);

/** Sunday: `new Date('YYYY-MM-DD')` is UTC midnight of that calendar day. */
const isSunday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() === 0;

/** The day itself if it is neither a Sunday nor a public holiday, else the next day that is neither. */
export function nextWorkingDay(day: string, options: HolidayOptions = {}): string {
  let d = day;
  while (isSunday(d) || isFrenchPublicHoliday(d, options)) d = addDays(d, 1);
  return d;
}
