import { z } from 'zod';
import { EReportingPrefs } from '@/lib/invoice-settings';
import { IsoDate } from '@/lib/openapi/schemas';

/** At most one year per request: the PA asks period by period (ten days to two months). */
export const EReportingQuery = z
  .object({
    from: IsoDate.meta({ description: 'First day (issue date of the documents, payment date of the payments), Europe/Paris.' }),
    to: IsoDate.meta({ description: 'Last day, included; before the same day a year after from.' }),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    else if (q.to >= `${Number(q.from.slice(0, 4)) + 1}${q.from.slice(4)}`) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'at most one year (to must be before the same day a year after from)' });
    }
  });
export type EReportingQuery = z.output<typeof EReportingQuery>;

const Cents = z.number().int();
const amounts = { total_ht: Cents, total_vat: Cents, total_ttc: Cents };

const Transactions = z.object({
  date: IsoDate.meta({ description: 'Issue date of the documents.' }),
  vat_category: z.string().meta({ description: 'UNTDID 5305: S, Z, E, AE, K, G, O.' }),
  vat_rate: z.string().meta({ description: 'Two decimals ("20.00").' }),
  invoice_count: z.number().int().meta({ description: 'Invoices and deposit invoices with a line at this rate that day.' }),
  credit_note_count: z.number().int().meta({ description: 'Credit notes with a line at this rate that day (their amounts are negative).' }),
  ...amounts,
});

export const EReportingData = z
  .object({
    from: IsoDate,
    to: IsoDate,
    currency: z.literal('EUR'),
    prefs: EReportingPrefs.nullable().meta({ description: 'The org’s e-reporting preferences: what its PA is to transmit, and how often.' }),
    b2c: z
      .object({ days: z.array(Transactions), total: z.object(amounts) })
      .meta({ description: 'Finalized invoices, deposit invoices and credit notes (negative) to private persons, per day, VAT category and rate.' }),
    international: z
      .object({
        days: z.array(Transactions.extend({ kind: z.enum(['intra_eu', 'export']).meta({ description: 'Buyer in another EU state, or outside the EU.' }) })),
        total: z.object(amounts),
      })
      .meta({ description: 'The same for businesses established abroad, per kind (intra_eu, export).' }),
    payments: z
      .object({
        days: z.array(z.object({ date: IsoDate, vat_rate: z.string(), amount: Cents.meta({ description: 'TTC collected at this rate that day (refunds negative).' }) })),
        total: z.object({ amount: Cents }),
      })
      .meta({
        description:
          'Payments collected (paid_at) on those documents when they are services taxed on receipts (operation_nature services, vat_exigibility not debits), split over the document’s VAT rates in proportion to their TTC.',
      }),
  })
  .meta({ id: 'EReportingData' });
export type EReportingData = z.infer<typeof EReportingData>;
