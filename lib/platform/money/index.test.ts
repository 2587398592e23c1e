import { expect, it } from 'vitest';
import { parseEuros } from './index';

it('parses euro amounts to exact cents', () => {
  expect(parseEuros('10000')).toBe(1_000_000);
  expect(parseEuros('10 000,5')).toBe(1_000_050);
  expect(parseEuros('0.07')).toBe(7);
  expect(parseEuros('1500.50')).toBe(150_050);
  expect(() => parseEuros('12.345')).toThrow(/not an amount/);
  expect(() => parseEuros('-3')).toThrow(/not an amount/);
});
