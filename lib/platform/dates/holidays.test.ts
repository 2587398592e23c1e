import { describe, expect, it } from 'vitest';
import { isFrenchPublicHoliday, nextWorkingDay } from '.';

describe('French public holidays', () => {
  it('knows the fixed and the moving ones', () => {
    for (const day of ['2026-01-01', '2026-04-06', '2026-05-01', '2026-05-08', '2026-05-14', '2026-05-25', '2026-07-14', '2026-08-15', '2026-11-01', '2026-11-11', '2026-12-25']) {
      expect(isFrenchPublicHoliday(day), day).toBe(true);
    }
    expect(isFrenchPublicHoliday('2026-11-26')).toBe(false);
  });

  it('counts Alsace-Moselle’s Good Friday and 26 December only when asked, even when Easter is the day clocks change', () => {
    // Easter 2027 is 28 March, the day summer time starts: Good Friday is 26 March.
    expect(isFrenchPublicHoliday('2027-03-26')).toBe(false);
    expect(isFrenchPublicHoliday('2027-03-26', { alsaceMoselle: true })).toBe(true);
    expect(isFrenchPublicHoliday('2027-03-25', { alsaceMoselle: true })).toBe(false);
    expect(isFrenchPublicHoliday('2026-12-26', { alsaceMoselle: true })).toBe(true);
    expect(isFrenchPublicHoliday('2026-12-26')).toBe(false);
  });
});

describe('nextWorkingDay', () => {
  it('keeps a working day, moves a Sunday to Monday and a holiday past itself (and past a Sunday after it)', () => {
    expect(nextWorkingDay('2026-11-26')).toBe('2026-11-26');
    expect(nextWorkingDay('2026-11-28')).toBe('2026-11-28'); // a Saturday stays
    expect(nextWorkingDay('2026-11-29')).toBe('2026-11-30');
    expect(nextWorkingDay('2026-12-25')).toBe('2026-12-26');
    // 1 November 2026 is a Sunday and a holiday; 11 November a Wednesday.
    expect(nextWorkingDay('2026-11-01')).toBe('2026-11-02');
    expect(nextWorkingDay('2026-11-11')).toBe('2026-11-12');
    // Whit Monday after the Sunday: 24 May 2026 → Tuesday 26.
    expect(nextWorkingDay('2026-05-24')).toBe('2026-05-26');
  });
});
