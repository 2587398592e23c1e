import { describe, expect, it } from 'vitest';
import { firstDateOnOrAfter, nextGenerationDate } from './schedule-dates';

const walk = (from: string, frequency: 'monthly' | 'quarterly' | 'yearly', steps: number) => {
  const anchor = Number(from.slice(8));
  const out = [from];
  for (let i = 0; i < steps; i++) out.push(nextGenerationDate(out.at(-1)!, frequency, anchor));
  return out;
};

describe('generation dates keep the anchor day', () => {
  it('monthly from 31 January: the last day of shorter months, back to the 31st after', () => {
    expect(walk('2026-01-31', 'monthly', 5)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
    expect(walk('2028-01-31', 'monthly', 2)).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
    expect(walk('2026-01-30', 'monthly', 2)).toEqual(['2026-01-30', '2026-02-28', '2026-03-30']);
  });

  it('monthly across the year end', () => {
    expect(walk('2026-11-15', 'monthly', 3)).toEqual(['2026-11-15', '2026-12-15', '2027-01-15', '2027-02-15']);
  });

  it('quarterly from 30 November and from 31 August', () => {
    expect(walk('2026-11-30', 'quarterly', 4)).toEqual(['2026-11-30', '2027-02-28', '2027-05-30', '2027-08-30', '2027-11-30']);
    expect(walk('2027-08-31', 'quarterly', 2)).toEqual(['2027-08-31', '2027-11-30', '2028-02-29']);
  });

  it('yearly from 29 February: 28 February in common years, 29 in leap years', () => {
    expect(walk('2028-02-29', 'yearly', 4)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    expect(walk('2026-03-31', 'yearly', 1)).toEqual(['2026-03-31', '2027-03-31']);
  });

  it('reactivation: the first anchor date on or after today, no paused period', () => {
    expect(firstDateOnOrAfter('2026-01-31', 'monthly', 31, '2026-05-10')).toBe('2026-05-31');
    expect(firstDateOnOrAfter('2026-01-31', 'monthly', 31, '2026-04-30')).toBe('2026-04-30');
    expect(firstDateOnOrAfter('2026-06-15', 'monthly', 15, '2026-05-10')).toBe('2026-06-15');
    expect(firstDateOnOrAfter('2028-02-29', 'yearly', 29, '2031-03-01')).toBe('2032-02-29');
  });
});
