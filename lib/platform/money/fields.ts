import { z } from 'zod';
import { Dec, decimalPlaces, isDecimalString, MAX_AMOUNT_CENTS, normalizeQuantity, normalizeRate } from './totals';

/** 1 billion euros: a unit price beyond is a typo, and totals stay exact integers. */
export const MAX_UNIT_PRICE = 100_000_000_000;

/**
 * The bounds of a line's quantity — strictly positive, at most 4 decimals, at most 1e9 — and of a percentage (a VAT
 * rate among them), 0 to 100: the API's fields below and the document editor (app/(backoffice)/documents) check
 * these. Each takes a decimal string (isDecimalString).
 */
export const MAX_QUANTITY = '1000000000';
export const QUANTITY_DECIMALS = 4;
export const quantityInBounds = (s: string) => new Dec(s).gt(0) && new Dec(s).lte(MAX_QUANTITY);
export const percentageInBounds = (s: string) => new Dec(s).gte(0) && new Dec(s).lte(100);

/**
 * How the OpenAPI document declares a decimal (docs/api-reference.md, "Decimals"): the string a client sends (the
 * syntax isDecimalString reads; ranges and decimals are in each field's description), and the canonical strings the
 * API answers: quantities as written without trailing zeros, VAT rates with two decimals, other percentages as stored.
 */
export const DECIMAL_PATTERNS = {
  input: '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$',
  quantity: '^-?[0-9]+(\\.[0-9]+)?$',
  rate: '^[0-9]{1,3}\\.[0-9]{2}$',
  percentage: '^[0-9]{1,3}(\\.[0-9]+)?$',
} as const;
const DECIMAL_EXAMPLES = { quantity: '2.5', rate: '20.00', percentage: '30' } as const;

/** A decimal in a response: a string of `kind`'s pattern, with an example. */
export const decimalString = (kind: keyof typeof DECIMAL_EXAMPLES, description: string) =>
  z.string().meta({ description, pattern: DECIMAL_PATTERNS[kind], examples: [DECIMAL_EXAMPLES[kind]] });

/** The same, or null: `type: [string, null]` with the pattern (which constrains the strings only). */
export const nullableDecimalString = (kind: keyof typeof DECIMAL_EXAMPLES, description: string) =>
  z.string().nullable().meta({ description, pattern: DECIMAL_PATTERNS[kind], examples: [DECIMAL_EXAMPLES[kind]] });

/**
 * A decimal token: a JSON string ("2.5"), or a plain JSON number converted to its shortest text (String(2.5) is
 * "2.5"), which is exact for every value the fields allow (at most 4 decimals, at most 1e9: fewer than 15 digits).
 * The document says both: a string of the input pattern, or a number.
 */
export const decimalToken = (what: string, example = '2.5') =>
  z
    // The union's own message: a boolean or an object is neither branch, and zod would say only "Invalid input".
    .union([z.string({ error: `must be a ${what} string` }), z.number({ error: `must be a ${what} string` })], { error: `must be a ${what} string` })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    // abort: the checks chained after this one parse the token as a decimal.
    .refine(isDecimalString, { error: `must be a ${what} string such as "2.5"`, abort: true })
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.type;
        jsonSchema.anyOf = [{ type: 'string', pattern: DECIMAL_PATTERNS.input }, { type: 'number' }];
        jsonSchema.examples = [example];
      },
    });

/** A percentage string between 0 and 100 with at most `places` decimals. */
export const Percentage = (places: number, { positive = false, example = '30' } = {}) =>
  decimalToken('percentage', example)
    .refine((s) => decimalPlaces(s) <= places, { error: `at most ${places} decimals`, abort: true })
    .refine((s) => percentageInBounds(s) && (!positive || new Dec(s).gt(0)), {
      error: positive ? 'must be greater than 0 and at most 100' : 'must be between 0 and 100',
    })
    .meta({ description: `Percentage, a decimal string from ${positive ? 'above 0' : '0'} to 100 with at most ${places} decimals ("30", "5.5"); a JSON number is accepted too.` });

/** A VAT rate, stored and returned with two decimals ("5.50"). */
export const VatRate = Percentage(2, { example: '20' })
  .transform(normalizeRate)
  .meta({ description: 'VAT rate in percent, a decimal string from 0 to 100 with at most 2 decimals ("20", "5.5"; a JSON number is accepted too); answered with two ("20.00").' });

export const Quantity = decimalToken('quantity')
  .refine((s) => decimalPlaces(s) <= QUANTITY_DECIMALS, { error: `at most ${QUANTITY_DECIMALS} decimals`, abort: true })
  .refine(quantityInBounds, { error: 'must be greater than 0 (and at most 1e9)' })
  .transform(normalizeQuantity)
  .meta({ description: 'Decimal string, strictly positive, at most 4 decimals ("2.5"); a JSON number is accepted too.' });

export const Cents = (max = MAX_AMOUNT_CENTS) =>
  z
    .number({ error: 'must be an integer number of cents' })
    .int({ error: 'must be an integer number of cents' })
    .min(0, { error: 'must not be negative' })
    .max(max, { error: `at most ${max} cents` });
