import { expect, it } from 'vitest';
import { addDays, daysBetween, dueDateFromTerms, endOfMonth, parisEndOfDay, parisInstant, todayParis } from './index';

it('dates by the Paris calendar, whatever the UTC day', () => {
  expect(todayParis(new Date('2026-12-31T22:59:59Z'))).toBe('2026-12-31');
  expect(todayParis(new Date('2026-12-31T23:00:00Z'))).toBe('2027-01-01'); // UTC+1 in winter
  expect(todayParis(new Date('2026-07-14T21:59:59Z'))).toBe('2026-07-14');
  expect(todayParis(new Date('2026-07-14T22:00:00Z'))).toBe('2026-07-15'); // UTC+2 in summer
});

it('finds the instant of a Paris wall-clock time, winter and summer, across the DST changes', () => {
  expect(parisInstant('2027-01-11', 9).toISOString()).toBe('2027-01-11T08:00:00.000Z');
  expect(parisInstant('2026-07-01', 9, 30).toISOString()).toBe('2026-07-01T07:30:00.000Z');
  // 29 March 2026: 02:00 → 03:00; 25 October 2026: 03:00 → 02:00.
  expect(parisInstant('2026-03-29', 12).toISOString()).toBe('2026-03-29T10:00:00.000Z');
  expect(parisInstant('2026-10-25', 12).toISOString()).toBe('2026-10-25T11:00:00.000Z');
  expect(parisEndOfDay('2026-11-26')).toBe('2026-11-26T22:59:59.000Z');
  expect(parisEndOfDay('2026-07-01')).toBe('2026-07-01T21:59:59.000Z');
});

it('adds days across months, years and DST changes', () => {
  expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  expect(addDays('2026-01-10', -10)).toBe('2025-12-31');
  expect(daysBetween('2026-01-10', '2026-02-24')).toBe(45);
  expect(endOfMonth('2024-02-03')).toBe('2024-02-29');
});

it('reads the due date from payment terms written in words', () => {
  const issue = '2026-01-10';
  expect(dueDateFromTerms(issue, null)).toBe('2026-02-09'); // legal default: 30 days
  expect(dueDateFromTerms(issue, 'Paiement à réception')).toBe(issue);
  expect(dueDateFromTerms(issue, 'Comptant')).toBe(issue);
  expect(dueDateFromTerms(issue, '30 jours')).toBe('2026-02-09');
  expect(dueDateFromTerms(issue, '45 jours fin de mois')).toBe('2026-02-28');
  expect(dueDateFromTerms(issue, '60 j')).toBe('2026-03-11');
  expect(dueDateFromTerms(issue, 'Net 15')).toBe('2026-01-25');
  expect(dueDateFromTerms(issue, '30 days end of month')).toBe('2026-02-28');
  expect(dueDateFromTerms(issue, 'Virement bancaire')).toBe('2026-02-09');
});
