import Decimal from 'decimal.js';

/*
 * Every money, date and number shown to a person or written to a machine format: the back-office pages (French),
 * the PDF and the e-mails (the client's language), the Factur-X XML. Isomorphic (no node: imports, no next/*):
 * client components format with it too. Parsing what a person typed stays with its domain (lib/platform/money's parseEuros).
 */

export type Language = 'fr' | 'en';

/** English is British English: "€1,234.56", "24 November 2026", dd/mm/yyyy. */
const LOCALES: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };

/** Intl formatters are costly to build and free to reuse: one per locale and option set. */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: () => F): F {
  const hit = cache.get(key);
  if (hit) return hit as F;
  const made = build();
  cache.set(key, made);
  return made;
}
const numberFormat = (lang: Language, options: Intl.NumberFormatOptions) =>
  cached(`n|${lang}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(LOCALES[lang], options));
const dateFormat = (lang: Language, options: Intl.DateTimeFormatOptions) =>
  cached(`d|${lang}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(LOCALES[lang], options));

export interface SpacingOption {
  /**
   * Every space a U+00A0 no-break space: for the PDF, whose embedded font has no U+202F (the narrow no-break
   * space Intl groups French thousands with), and where "20 %" must never wrap.
   */
  nbsp?: boolean;
}

const noBreak = (s: string) => s.replace(/\u202f/g, '\u00a0');

// ─── Money (integer cents) ──────────────────────────────────────────────────

/**
 * 123456 → "1 234,56 €" (fr, U+202F between thousands) or "€1,234.56" (en). Integer cents divided once for
 * display: no float arithmetic below the cent. A zero is never "-0,00 €" (the VAT of a negative base at 0 %).
 */
export function formatMoney(cents: number, lang: Language = 'fr', { nbsp = false }: SpacingOption = {}): string {
  const text = numberFormat(lang, { style: 'currency', currency: 'EUR' }).format(cents === 0 ? 0 : cents / 100);
  return nbsp ? noBreak(text) : text;
}

/**
 * An amount in a document's currency: EUR (or none) as formatMoney; another one — a received invoice may be in any —
 * "1912,15 CHF" (fr) / "1912.15 CHF" (en): the amount with the language's separator, then the ISO 4217 code the
 * invoice states (not Intl's symbol).
 */
export function formatMoneyIn(cents: number, currency: string | null | undefined, lang: Language = 'fr', { nbsp = false }: SpacingOption = {}): string {
  if (!currency || currency === 'EUR') return formatMoney(cents, lang, { nbsp });
  return `${decimalSeparator(new Decimal(cents).dividedBy(100).toFixed(2), lang)}${nbsp ? '\u00a0' : ' '}${currency}`;
}

/** 1234500 → "12,3 k €": a chart's axis, where the exact amount is in the table beside it. */
export function formatMoneyCompact(cents: number, lang: Language = 'fr'): string {
  return numberFormat(lang, { style: 'currency', currency: 'EUR', notation: 'compact', maximumFractionDigits: 1 }).format(cents / 100);
}

/** 120050 → "1200,50", 4000 → "40", -1050 → "-10,50": an amount put back into an input (string arithmetic). */
export function formatMoneyInput(cents: number): string {
  const digits = String(Math.abs(cents)).padStart(3, '0');
  const text = `${digits.slice(0, -2)},${digits.slice(-2)}`.replace(/,00$/, '');
  return cents < 0 ? `-${text}` : text;
}

// ─── Numbers, quantities, rates (decimal strings) ───────────────────────────

const decimalSeparator = (s: string, lang: Language) => (lang === 'fr' ? s.replace('.', ',') : s);

/** "1.50" → "1,5" (fr) / "1.5" (en): one spelling per value, no trailing zeros, no exponent. */
export function formatDecimal(value: string, lang: Language = 'fr'): string {
  return decimalSeparator(new Decimal(value).toFixed(), lang);
}

/** "2.50" → "2,50": a decimal as stored, with the language's separator (a quantity or a percentage in an input). */
export function formatDecimalAsTyped(value: string, lang: Language = 'fr'): string {
  return decimalSeparator(value, lang);
}

/** "20.00" → "20 %" (fr) / "20%" (en); "5.50" → "5,5 %". */
export function formatRate(rate: string, lang: Language = 'fr', { nbsp = false }: SpacingOption = {}): string {
  return `${formatDecimal(rate, lang)}${lang === 'fr' ? (nbsp ? '\u00a0' : ' ') : ''}%`;
}

/** 12345 → "12 345" (fr); `maxDecimals` for a measure such as "1,5" Mo. */
export function formatNumber(n: number, lang: Language = 'fr', { maxDecimals }: { maxDecimals?: number } = {}): string {
  return numberFormat(lang, maxDecimals === undefined ? {} : { maximumFractionDigits: maxDecimals }).format(n);
}

const pluralRules = { fr: new Intl.PluralRules('fr-FR'), en: new Intl.PluralRules('en-GB') };

/**
 * The word agreeing with a count: French takes the singular for 0 and 1 ("0 relance", "1 jour", "5 jours"); English
 * for 1 only. `many` defaults to the singular plus "s".
 */
export function pluralWord(n: number, one: string, many = `${one}s`, lang: Language = 'fr'): string {
  return pluralRules[lang].select(n) === 'one' ? one : many;
}

/** A count and its word: `plural(5, 'jour')` → "5 jours", `plural(1200, 'ligne')` → "1 200 lignes". */
export function plural(n: number, one: string, many = `${one}s`, lang: Language = 'fr'): string {
  return `${formatNumber(n, lang)} ${pluralWord(n, one, many, lang)}`;
}

// ─── Dates ──────────────────────────────────────────────────────────────────

/**
 * A calendar day "2026-11-24" (already a Europe/Paris day: documents, payments) → "24/11/2026" (numeric, both
 * languages) or "24 novembre 2026" / "24 November 2026" (long; "1er décembre 2026" in French), whatever the server's
 * time zone. Empty for none.
 */
export function formatDay(day: string | null | undefined, lang: Language = 'fr', style: 'numeric' | 'long' = 'numeric'): string {
  if (!day) return '';
  const options: Intl.DateTimeFormatOptions =
    style === 'long' ? { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' } : { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' };
  const text = dateFormat(lang, options).format(new Date(`${day}T00:00:00Z`));
  // French writes the first of a month as an ordinal: « le 1er décembre » (Intl says « 1 décembre »).
  return style === 'long' && lang === 'fr' && day.endsWith('-01') ? text.replace(/^1(?=\s)/, '1er') : text;
}

/** A month "2026-03" → "mars" (short: "janv.", "déc.") or "mars 2026" (long). */
export function formatMonth(month: string, style: 'short' | 'long', lang: Language = 'fr'): string {
  const options: Intl.DateTimeFormatOptions = style === 'long' ? { month: 'long', year: 'numeric', timeZone: 'UTC' } : { month: 'short', timeZone: 'UTC' };
  return dateFormat(lang, options).format(new Date(`${month}-15T12:00:00Z`));
}

export interface InstantStyle {
  /** "24/11/2026" (short) or "24 nov. 2026" (medium). */
  date?: 'short' | 'medium';
  /** "09:00" (short), "09:00:00" (medium), or no time (null). */
  time?: 'short' | 'medium' | null;
  lang?: Language;
}

/** An instant (a timestamp, not a calendar day) as read on a wall clock in Paris: "24/11/2026 09:00". Empty for none. */
export function formatInstant(instant: Date | string | number | null | undefined, { date = 'short', time = 'short', lang = 'fr' }: InstantStyle = {}): string {
  if (instant === null || instant === undefined || instant === '') return '';
  const options: Intl.DateTimeFormatOptions = { dateStyle: date, timeZone: 'Europe/Paris', ...(time ? { timeStyle: time } : {}) };
  return dateFormat(lang, options).format(instant instanceof Date ? instant : new Date(instant));
}

// ─── Machine formats (Factur-X CII) ─────────────────────────────────────────

/** Integer cents → "1234.56", "-0.05" (exact: no float arithmetic, no grouping). */
export function xmlAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer cents → "1234,56", "-0,05": an amount in a French CSV file (decimal comma, no grouping, no currency). */
export const csvAmount = (cents: number) => xmlAmount(cents).replace('.', ',');

/** "2026-11-24" → "20261124": the UN/CEFACT date format 102 (CCYYMMDD). */
export const xmlDate = (day: string) => day.replaceAll('-', '');
