import { z } from 'zod';
import { EReportingPrefs } from '@/lib/domain/invoice-settings';
import { decimalString } from '@/lib/platform/money';
import { IsoDate } from '@/lib/platform/contract';

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
const amounts = {
  total_ht: Cents.meta({ description: 'Total excluding VAT, in cents.' }),
  total_vat: Cents.meta({ description: 'VAT, in cents.' }),
  total_ttc: Cents.meta({ description: 'Total including VAT, in cents.' }),
};

const Transactions = z.object({
  date: IsoDate.meta({ description: 'Issue date of the documents.' }),
  vat_category: z.string().meta({ description: 'UNTDID 5305: S, Z, E, AE, K, G, O.' }),
  vat_rate: decimalString('rate', 'VAT rate in percent, a decimal string with two decimals ("20.00").'),
  invoice_count: z.number().int().meta({ description: 'Invoices and deposit invoices with a line at this rate that day.' }),
  credit_note_count: z.number().int().meta({ description: 'Credit notes with a line at this rate that day (their amounts are negative).' }),
  ...amounts,
});

export const EReportingData = z
  .object({
    from: IsoDate.meta({ description: 'First day covered (Europe/Paris).' }),
    to: IsoDate.meta({ description: 'Last day covered, included (Europe/Paris).' }),
    currency: z.literal('EUR').meta({ description: 'Currency of every amount: euros, in cents.' }),
    prefs: EReportingPrefs.nullable().meta({ description: 'The org’s e-reporting preferences: what its PA is to transmit, and how often.' }),
    b2c: z
      .object({
        days: z.array(Transactions).meta({ description: 'One row per day, VAT category and rate with documents, oldest first.' }),
        total: z.object(amounts).meta({ description: 'The sum of the rows.' }),
      })
      .meta({ description: 'Finalized invoices, deposit invoices and credit notes (negative) to private persons, per day, VAT category and rate.' }),
    international: z
      .object({
        days: z
          .array(Transactions.extend({ kind: z.enum(['intra_eu', 'export']).meta({ description: 'Buyer in another EU state, or outside the EU.' }) }))
          .meta({ description: 'One row per day, kind, VAT category and rate with documents, oldest first.' }),
        total: z.object(amounts).meta({ description: 'The sum of the rows.' }),
      })
      .meta({ description: 'The same for businesses established abroad, per kind (intra_eu, export).' }),
    payments: z
      .object({
        days: z
          .array(
            z.object({
              date: IsoDate.meta({ description: 'Day the payments were received (Europe/Paris).' }),
              vat_rate: decimalString('rate', 'VAT rate in percent, a decimal string with two decimals ("20.00").'),
              amount: Cents.meta({ description: 'TTC collected at this rate that day (refunds negative).' }),
            }),
          )
          .meta({ description: 'One row per day and VAT rate with payments, oldest first.' }),
        total: z.object({ amount: Cents.meta({ description: 'TTC collected over the range, in cents.' }) }).meta({ description: 'The sum of the rows.' }),
      })
      .meta({
        description:
          'Payments collected (paid_at) on those documents when they are services taxed on receipts (operation_nature services, vat_exigibility not debits), split over the document’s VAT rates in proportion to their TTC.',
      }),
  })
  .meta({ id: 'EReportingData' });
export type EReportingData = z.infer<typeof EReportingData>;
