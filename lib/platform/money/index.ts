import { ApiError } from '@/lib/platform/errors';

/** "10000", "10 000,50" or "1500.5" euros → integer cents, by string arithmetic (never binary floats). */
export function parseEuros(input: string, field = 'amount'): number {
  const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(input.replace(/[\s\u202f\u00a0]/g, ''));
  if (!m) throw new ApiError(422, 'validation_error', `"${input}" is not an amount in euros (e.g. 10000 or 1500.50).`, field);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}


export * from './fields';
export * from './totals';
export * from './vat-exemptions';
