import { z } from 'zod';
import { Dec, decimalPlaces, isDecimalString, MAX_AMOUNT_CENTS, normalizeQuantity, normalizeRate } from './totals';

/** 1 billion euros: a unit price beyond is a typo, and totals stay exact integers. */
export const MAX_UNIT_PRICE = 100_000_000_000;
const MAX_QUANTITY = '1000000000';

/** A decimal token: a JSON string ("2.5"), or a plain JSON number converted to its text. */
export const decimalToken = (what: string) =>
  z
    .union([z.string({ error: `must be a ${what} string` }), z.number({ error: `must be a ${what} string` })])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    // abort: the checks chained after this one parse the token as a decimal.
    .refine(isDecimalString, { error: `must be a ${what} string such as "2.5"`, abort: true });

/** A percentage string between 0 and 100 with at most `places` decimals. */
export const Percentage = (places: number, { positive = false } = {}) =>
  decimalToken('percentage')
    .refine((s) => decimalPlaces(s) <= places, { error: `at most ${places} decimals`, abort: true })
    .refine((s) => new Dec(s).gte(0) && new Dec(s).lte(100) && (!positive || new Dec(s).gt(0)), {
      error: positive ? 'must be greater than 0 and at most 100' : 'must be between 0 and 100',
    })
    .meta({ type: 'string', description: 'Percentage as a decimal string, e.g. "20" or "5.5".' });

/** A VAT rate, stored and returned with two decimals ("5.50"). */
export const VatRate = Percentage(2)
  .transform(normalizeRate)
  .meta({ type: 'string', description: 'VAT rate, percentage string 0 to 100, at most 2 decimals; returned with two ("20.00").' });

export const Quantity = decimalToken('quantity')
  .refine((s) => decimalPlaces(s) <= 4, { error: 'at most 4 decimals', abort: true })
  .refine((s) => new Dec(s).gt(0) && new Dec(s).lte(MAX_QUANTITY), { error: 'must be greater than 0 (and at most 1e9)' })
  .transform(normalizeQuantity)
  .meta({ type: 'string', description: 'Decimal string, strictly positive, at most 4 decimals.' });

export const Cents = (max = MAX_AMOUNT_CENTS) =>
  z
    .number({ error: 'must be an integer number of cents' })
    .int({ error: 'must be an integer number of cents' })
    .min(0, { error: 'must not be negative' })
    .max(max, { error: `at most ${max} cents` });
