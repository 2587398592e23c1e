import { describe, expect, it } from 'vitest';
import { monthLabel, niceScale } from './chart-scale';

describe('niceScale', () => {
  it('starts at zero and ends on a round step above the largest value', () => {
    expect(niceScale([1_234_500, 880_000, 0])).toEqual({ min: 0, max: 1_500_000, step: 500_000, ticks: [0, 500_000, 1_000_000, 1_500_000] });
    expect(niceScale([99])).toEqual({ min: 0, max: 100, step: 25, ticks: [0, 25, 50, 75, 100] });
  });

  it('goes below zero when a month is negative (credit notes above invoices)', () => {
    const s = niceScale([300_000, -120_000]);
    // 420 000 over 4 steps: 105 000 rounds up to 200 000.
    expect(s).toEqual({ min: -200_000, max: 400_000, step: 200_000, ticks: [-200_000, 0, 200_000, 400_000] });
  });

  it('gives a usable axis for an empty year (all zeros) and for tiny amounts', () => {
    expect(niceScale([0, 0, 0])).toEqual({ min: 0, max: 1, step: 1, ticks: [0, 1] });
    expect(niceScale([3])).toEqual({ min: 0, max: 3, step: 1, ticks: [0, 1, 2, 3] });
  });
});

describe('month labels', () => {
  it('names the month in French and shows the year under January and the first bar', () => {
    expect(monthLabel('2026-03', false)).toEqual({ month: 'mars', year: null });
    expect(monthLabel('2026-01', false)).toEqual({ month: 'janv.', year: '2026' });
    expect(monthLabel('2025-12', true)).toEqual({ month: 'déc.', year: '2025' });
  });
});
