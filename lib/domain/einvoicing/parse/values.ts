import { isValidSiren } from '@/lib/platform/identifiers';
import { Dec, isDecimalString, MAX_AMOUNT_CENTS, normalizeQuantity, normalizeRate } from '@/lib/platform/money';
import { InboundParseFailure } from './types';

/** "104.90" → 10490, exactly (decimal.js); anything not a plain decimal with at most two decimals is refused. */
export function cents(text: string, field: string): number {
  if (!isDecimalString(text)) throw new InboundParseFailure('invalid_amount', `${field} is not a number: "${text.slice(0, 40)}".`, field);
  const value = new Dec(text).times(100);
  if (!value.isInteger()) throw new InboundParseFailure('invalid_amount', `${field} has more than two decimals: "${text.slice(0, 40)}".`, field);
  if (value.abs().greaterThan(MAX_AMOUNT_CENTS)) throw new InboundParseFailure('invalid_amount', `${field} is out of range.`, field);
  return value.toNumber() || 0;
}

/** A required amount. */
export function requiredCents(text: string | null, field: string): number {
  if (text === null) throw new InboundParseFailure('missing_field', `The document has no ${field}.`, field);
  return cents(text, field);
}

export const optionalCents = (text: string | null, field: string): number | null => (text === null ? null : cents(text, field));

/** A decimal kept as a string (quantity, unit price); a non-numeric one is refused. */
export function decimal(text: string | null, field: string): string | null {
  if (text === null) return null;
  if (!isDecimalString(text)) throw new InboundParseFailure('invalid_amount', `${field} is not a number: "${text.slice(0, 40)}".`, field);
  return normalizeQuantity(text);
}

/** A VAT rate with two decimals ("20.00"), or null. */
export function rate(text: string | null, field: string): string | null {
  if (text === null) return null;
  if (!isDecimalString(text) || new Dec(text).isNegative() || new Dec(text).greaterThan(100)) {
    throw new InboundParseFailure('invalid_amount', `${field} is not a VAT rate: "${text.slice(0, 40)}".`, field);
  }
  return normalizeRate(text);
}

const realDay = (y: string, m: string, d: string): string | null => {
  const day = `${y}-${m}-${d}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day ? day : null;
};

/** YYYY-MM-DD from CII's format 102 (YYYYMMDD) or UBL's xs:date (YYYY-MM-DD, a time zone tolerated). */
export function day(text: string | null, field: string): string | null {
  if (text === null) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:Z|[+-]\d{2}:\d{2})?$/.exec(text);
  const parsed = m ? realDay(m[1]!, m[2]!, m[3]!) : null;
  if (!parsed) throw new InboundParseFailure('invalid_date', `${field} is not a date: "${text.slice(0, 40)}".`, field);
  return parsed;
}

export function requiredDay(text: string | null, field: string): string {
  const parsed = day(text, field);
  if (parsed === null) throw new InboundParseFailure('missing_field', `The document has no ${field}.`, field);
  return parsed;
}

export interface PartyIds {
  /** Legal registration identifiers (BT-30 / BT-47) with their scheme. */
  legal: Array<{ value: string; scheme: string | null }>;
  /** Other identifiers (BT-29 / BT-46, electronic address BT-34 / BT-49). */
  other: Array<{ value: string; scheme: string | null }>;
  /** VAT identifiers (BT-31 / BT-48). */
  vat: string[];
}

const digits = (s: string) => s.replace(/[\s.-]/g, '');

/**
 * A party's SIREN, in this order: its legal registration with scheme 0002 (SIREN), a SIRET (0009) whose first 9
 * digits are the SIREN, then the French VAT number FRkk + SIREN. Only a SIREN with a valid Luhn key counts.
 */
export function sirenOf(ids: PartyIds): string | null {
  const candidates = [
    ...ids.legal.filter((i) => i.scheme === '0002' || i.scheme === null).map((i) => digits(i.value)),
    ...[...ids.legal, ...ids.other].filter((i) => i.scheme === '0009').map((i) => digits(i.value).slice(0, 9)),
    ...ids.vat.map((v) => /^FR[0-9A-Z]{2}(\d{9})$/i.exec(digits(v))?.[1] ?? ''),
  ];
  return candidates.find((c) => /^\d{9}$/.test(c) && isValidSiren(c)) ?? null;
}

export function siretOf(ids: PartyIds): string | null {
  return [...ids.legal, ...ids.other].map((i) => (i.scheme === '0009' ? digits(i.value) : '')).find((v) => /^\d{14}$/.test(v)) ?? null;
}

/** UNTDID 1001 credit-note codes (EN 16931's list of credit notes). */
const CREDIT_NOTE_CODES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '503', '532']);
export const isCreditNoteCode = (code: string | null) => code !== null && CREDIT_NOTE_CODES.has(code);

/** Negates a credit note's amounts (see InboundFields): −0 becomes 0. */
export const signed = (amount: number, creditNote: boolean) => (creditNote && amount !== 0 ? -amount : amount);
