import { expect, it } from 'vitest';
import { formatEuros, parseEuros } from './index';

it('parses euro amounts to exact cents', () => {
  expect(parseEuros('10000')).toBe(1_000_000);
  expect(parseEuros('10 000,5')).toBe(1_000_050);
  expect(parseEuros('0.07')).toBe(7);
  expect(parseEuros('1500.50')).toBe(150_050);
  expect(() => parseEuros('12.345')).toThrow(/not an amount/);
  expect(() => parseEuros('-3')).toThrow(/not an amount/);
});

it('formats cents the French way', () => {
  expect(formatEuros(123_456).replace(/\s/g, ' ')).toBe('1 234,56 €');
  expect(formatEuros(-1_050).replace(/\s/g, ' ')).toBe('-10,50 €');
  // The VAT of a negative base at 0 % rounds to −0: it still reads as zero.
  expect(formatEuros(-0).replace(/\s/g, ' ')).toBe('0,00 €');
});
