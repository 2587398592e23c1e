import { z } from 'zod';
import { PageQuery } from '@/lib/platform/http';
import { Cents, decimalString, MAX_UNIT_PRICE, VatRate } from '@/lib/platform/money';
import { nullableString, Timestamp, text, wellFormed } from '@/lib/platform/contract';

const productFields = {
  name: z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, { error: 'must not be blank' })
    .max(300)
    .refine(wellFormed, { error: 'contains an invalid character' })
    .meta({ description: 'Name, 1 to 300 characters; becomes a line’s description.' }),
  description: text(5000).meta({ description: 'Longer text, at most 5000 characters; becomes a line’s details.' }),
  unit: text(50).meta({ description: 'Unit label (hour, day, piece…).' }),
  unit_price_cents: Cents(MAX_UNIT_PRICE).meta({ description: 'Price excluding VAT, in cents.' }),
  vat_rate: VatRate,
};

export const ProductCreate = z
  .strictObject({ ...productFields, vat_rate: productFields.vat_rate.default('20.00') })
  .meta({ id: 'ProductCreate', description: 'vat_rate defaults to 20.00 (the French standard rate).' });
export type ProductCreate = z.output<typeof ProductCreate>;

export const ProductPatch = z
  .strictObject({
    name: productFields.name.optional(),
    description: productFields.description,
    unit: productFields.unit,
    unit_price_cents: productFields.unit_price_cents.optional(),
    vat_rate: productFields.vat_rate.optional(),
  })
  .meta({ id: 'ProductPatch', description: 'Omitted key: unchanged. null clears description or unit; the other keys cannot be null.' });
export type ProductPatch = z.output<typeof ProductPatch>;

export const Product = z
  .object({
    id: z.uuid().meta({ description: 'The product’s id.' }),
    name: z.string().meta({ description: 'Name; becomes a line’s description.' }),
    description: nullableString.meta({ description: 'Longer text; becomes a line’s details. Null when none.' }),
    unit: nullableString.meta({ description: 'Unit label (hour, day, piece…); null when none.' }),
    unit_price_cents: z.number().int().meta({ description: 'Price excluding VAT, in cents.' }),
    vat_rate: decimalString('rate', 'VAT rate in percent, a decimal string with two decimals ("20.00").'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Product', description: 'A catalogue entry a document’s line can start from.' });
export type Product = z.infer<typeof Product>;

export const ProductListQuery = PageQuery.extend({
  q: z.string().trim().min(1, { error: 'must not be blank' }).max(200).optional().meta({ description: 'Case-insensitive substring of the name.' }),
});
export type ProductListQuery = z.output<typeof ProductListQuery>;
