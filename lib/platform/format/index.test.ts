import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatDecimal,
  formatDecimalAsTyped,
  formatInstant,
  formatMoney,
  formatMoneyCompact,
  formatMoneyIn,
  formatMoneyInput,
  formatMonth,
  formatNumber,
  formatRate,
  plural,
  pluralWord,
  xmlAmount,
  xmlDate,
} from './index';

// The exact bytes matter: the PDF, the e-mails and the XML are compared as text by their tests.
const NNBSP = '\u202f';
const NBSP = '\u00a0';

describe('money', () => {
  it('formats cents in French with Intl’s narrow no-break spaces, and in British English', () => {
    expect(formatMoney(123_456)).toBe(`1${NNBSP}234,56${NBSP}€`);
    expect(formatMoney(123_456, 'en')).toBe('€1,234.56');
    expect(formatMoney(-1_050)).toBe(`-10,50${NBSP}€`);
    expect(formatMoney(-1_050, 'en')).toBe('-€10.50');
  });

  it('never writes a negative zero', () => {
    expect(formatMoney(-0)).toBe(`0,00${NBSP}€`);
    expect(formatMoney(-0, 'en')).toBe('€0.00');
  });

  it('uses only U+00A0 when asked (the PDF font has no U+202F)', () => {
    expect(formatMoney(123_456_78, 'fr', { nbsp: true })).toBe(`123${NBSP}456,78${NBSP}€`);
    expect(formatMoney(123_456_78, 'en', { nbsp: true })).toBe('€123,456.78');
  });

  it('writes an amount in another currency with its ISO code (a received invoice), EUR as formatMoney', () => {
    expect(formatMoneyIn(191_215, 'CHF')).toBe('1912,15 CHF');
    expect(formatMoneyIn(-5, 'USD', 'en', { nbsp: true })).toBe(`-0.05${NBSP}USD`);
    expect(formatMoneyIn(123_456_78, 'EUR')).toBe(formatMoney(123_456_78));
    expect(formatMoneyIn(100, null, 'fr', { nbsp: true })).toBe(formatMoney(100, 'fr', { nbsp: true }));
  });

  it('formats a chart axis compactly', () => {
    expect(formatMoneyCompact(1_234_500).replace(/\s/g, ' ')).toBe('12,3 k €');
  });

  it('puts an amount back into an input', () => {
    expect(formatMoneyInput(120_050)).toBe('1200,50');
    expect(formatMoneyInput(4_000)).toBe('40');
    expect(formatMoneyInput(7)).toBe('0,07');
    expect(formatMoneyInput(-1_050)).toBe('-10,50');
    expect(formatMoneyInput(0)).toBe('0');
  });
});

describe('numbers', () => {
  it('writes decimal strings with one spelling per value', () => {
    expect(formatDecimal('1.50')).toBe('1,5');
    expect(formatDecimal('1.50', 'en')).toBe('1.5');
    expect(formatDecimal('20.00')).toBe('20');
    expect(formatDecimal('0.0001')).toBe('0,0001');
    expect(formatDecimal('03')).toBe('3');
  });

  it('keeps a decimal as typed, with the separator of the language', () => {
    expect(formatDecimalAsTyped('2.50')).toBe('2,50');
    expect(formatDecimalAsTyped('30')).toBe('30');
    expect(formatDecimalAsTyped('2.50', 'en')).toBe('2.50');
  });

  it('writes rates', () => {
    expect(formatRate('20.00')).toBe('20 %');
    expect(formatRate('5.50')).toBe('5,5 %');
    expect(formatRate('5.50', 'fr', { nbsp: true })).toBe(`5,5${NBSP}%`);
    expect(formatRate('5.50', 'en')).toBe('5.5%');
  });

  it('writes counts and measures', () => {
    expect(formatNumber(12_345)).toBe(`12${NNBSP}345`);
    expect(formatNumber(1.25, 'fr', { maxDecimals: 1 })).toBe('1,3');
    expect(formatNumber(1.5, 'en', { maxDecimals: 1 })).toBe('1.5');
  });
});

describe('plurals', () => {
  it('agrees a word with its count, French singular for 0 and 1', () => {
    expect([plural(0, 'jour'), plural(1, 'jour'), plural(5, 'jour'), plural(1200, 'ligne')]).toEqual(['0 jour', '1 jour', '5 jours', `1${NNBSP}200 lignes`]);
    expect(plural(2, 'devis', 'devis')).toBe('2 devis');
    expect([pluralWord(1, 'programmée'), pluralWord(3, 'programmée')]).toEqual(['programmée', 'programmées']);
    expect([plural(0, 'day', 'days', 'en'), plural(1, 'day', 'days', 'en')]).toEqual(['0 days', '1 day']);
  });
});

describe('dates', () => {
  it('writes a calendar day whatever the server’s zone', () => {
    expect(formatDay('2026-11-24')).toBe('24/11/2026');
    expect(formatDay('2026-11-24', 'en')).toBe('24/11/2026');
    expect(formatDay('2026-03-12', 'fr', 'long')).toBe('12 mars 2026');
    expect(formatDay('2026-03-12', 'en', 'long')).toBe('12 March 2026');
    expect(formatDay('2026-01-01', 'fr', 'long')).toBe('1er janvier 2026');
    expect(formatDay(null)).toBe('');
    expect(formatDay('')).toBe('');
  });

  it('writes months', () => {
    expect(formatMonth('2026-03', 'short')).toBe('mars');
    expect(formatMonth('2026-01', 'short')).toBe('janv.');
    expect(formatMonth('2026-08', 'long')).toBe('août 2026');
  });

  it('reads an instant on a Paris wall clock, summer and winter', () => {
    expect(formatInstant('2026-11-24T08:00:00Z')).toBe('24/11/2026 09:00');
    expect(formatInstant(new Date('2026-07-01T21:30:15Z'), { time: 'medium' })).toBe('01/07/2026 23:30:15');
    expect(formatInstant('2026-11-24T08:00:00Z', { date: 'medium' })).toBe('24 nov. 2026, 09:00');
    // Late evening in UTC is already the next day in Paris.
    expect(formatInstant('2026-11-24T23:30:00Z', { time: null })).toBe('25/11/2026');
    expect(formatInstant(null)).toBe('');
  });
});

describe('machine formats (CII)', () => {
  it('writes cents as exact decimal amounts', () => {
    expect([xmlAmount(0), xmlAmount(5), xmlAmount(-5), xmlAmount(123456), xmlAmount(-100), xmlAmount(10 ** 15)]).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '1234.56',
      '-1.00',
      '10000000000000.00',
    ]);
  });

  it('writes days in format 102', () => {
    expect(xmlDate('2026-11-24')).toBe('20261124');
  });
});

it('formats cents the French way (was lib/platform/money formatEuros)', () => {
  expect(formatMoney(123_456).replace(/\s/g, ' ')).toBe('1 234,56 €');
  expect(formatMoney(-1_050).replace(/\s/g, ' ')).toBe('-10,50 €');
  // The VAT of a negative base at 0 % rounds to −0: it still reads as zero.
  expect(formatMoney(-0).replace(/\s/g, ' ')).toBe('0,00 €');
});

it('prints a calendar day the way French documents do (was lib/platform/dates frenchDate)', () => {
  expect(formatDay('2026-11-02', 'fr')).toBe('02/11/2026');
});
