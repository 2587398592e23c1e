import { z } from 'zod';
import { IsoDate, nullableString } from '@/lib/openapi/schemas';

const amounts = z.object({ count: z.number().int(), total_ht: z.number().int(), total_tva: z.number().int(), total_ttc: z.number().int() });
const balance = z.object({ count: z.number().int(), amount: z.number().int().meta({ description: 'Cents TTC still due.' }) });

export const StatsQuery = z
  .object({
    from: IsoDate.optional().meta({ description: 'First issue date counted (default: January 1st of this year).' }),
    to: IsoDate.optional().meta({ description: 'Last issue date counted (default: today).' }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  });
export type StatsQuery = z.output<typeof StatsQuery>;

export const InvoiceStats = z
  .object({
    from: IsoDate,
    to: IsoDate,
    as_of: IsoDate.meta({ description: 'Today (Europe/Paris): the day outstanding and overdue are measured.' }),
    invoiced: amounts.meta({ description: 'Finalized invoices and deposit invoices issued in the range (cancelled ones included: their credit note counts below).' }),
    credited: amounts.meta({ description: 'Finalized credit notes issued in the range.' }),
    net: z.object({ total_ht: z.number().int(), total_tva: z.number().int(), total_ttc: z.number().int() }).meta({ description: 'invoiced − credited.' }),
    collected: z.object({ count: z.number().int(), amount: z.number().int() }).meta({ description: 'Payments received (paid_at) in the range.' }),
    outstanding: balance.meta({
      description: 'Today, whatever the range: finalized or sent invoices and deposits with total_ttc − payments − their credit note > 0.',
    }),
    overdue: balance.meta({ description: 'The outstanding ones whose due date has passed.' }),
    drafts: z.object({ count: z.number().int() }),
    quotes: z
      .object({
        open: z.object({ count: z.number().int(), total_ht: z.number().int() }),
        accepted: z.object({ count: z.number().int(), total_ht: z.number().int() }),
        rejected: z.object({ count: z.number().int() }),
        expired: z.object({ count: z.number().int() }),
      })
      .meta({ description: 'Finalized quotes issued in the range, by outcome (open = finalized or sent).' }),
  })
  .meta({ id: 'InvoiceStats' });
export type InvoiceStats = z.infer<typeof InvoiceStats>;

export const RevenueQuery = z
  .object({
    from: IsoDate.optional().meta({ description: 'Default: the first day of the month eleven months ago.' }),
    to: IsoDate.optional().meta({ description: 'Default: today.' }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  });
export type RevenueQuery = z.output<typeof RevenueQuery>;

const revenueFigures = {
  invoiced_ht: z.number().int().meta({ description: 'Finalized invoices and deposit invoices, HT.' }),
  credited_ht: z.number().int().meta({ description: 'Finalized credit notes, HT.' }),
  net_ht: z.number().int().meta({ description: 'invoiced_ht − credited_ht.' }),
  net_tva: z.number().int(),
  net_ttc: z.number().int(),
};

export const Revenue = z
  .object({
    from: IsoDate,
    to: IsoDate,
    months: z.array(
      z.object({
        month: z.string().meta({ description: 'YYYY-MM (issue date, Europe/Paris).' }),
        ...revenueFigures,
        invoice_count: z.number().int(),
        credit_note_count: z.number().int(),
      }),
    ),
    total: z.object(revenueFigures),
  })
  .meta({ id: 'Revenue', description: 'Revenue per month of issue date, every month of the range present, credit notes netted.' });
export type Revenue = z.infer<typeof Revenue>;

export const RevenueByClientQuery = RevenueQuery.safeExtend({
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export type RevenueByClientQuery = z.output<typeof RevenueByClientQuery>;

export const RevenueByClient = z
  .object({
    from: IsoDate,
    to: IsoDate,
    data: z.array(
      z.object({
        contact_id: z.uuid(),
        contact_name: nullableString.meta({ description: 'As invoiced (the latest finalized document’s client snapshot).' }),
        ...revenueFigures,
        document_count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'RevenueByClient', description: 'Net revenue per client over the range, largest first.' });
export type RevenueByClient = z.infer<typeof RevenueByClient>;

export const ClientSummaryQuery = z.object({ contact_id: z.uuid({ error: 'must be a contact id' }) });

export const ClientSummary = z
  .object({
    contact_id: z.uuid(),
    contact_name: nullableString.meta({ description: 'The live contact, or null when it no longer exists.' }),
    as_of: IsoDate,
    drafts: z.object({ count: z.number().int() }),
    quotes: z.object({
      count: z.number().int().meta({ description: 'Finalized quotes.' }),
      open: z.number().int(),
      accepted: z.number().int(),
      accepted_ht: z.number().int(),
    }),
    invoiced: amounts,
    credited: amounts,
    paid: z.object({ count: z.number().int(), amount: z.number().int() }),
    outstanding: balance,
    overdue: balance,
    first_issue_date: IsoDate.nullable(),
    last_issue_date: IsoDate.nullable(),
  })
  .meta({ id: 'ClientSummary', description: 'Everything billed to one client, all time.' });
export type ClientSummary = z.infer<typeof ClientSummary>;
