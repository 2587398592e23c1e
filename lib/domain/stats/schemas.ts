import { z } from 'zod';
import { IsoDate, nullableString } from '@/lib/platform/contract';

const count = (what: string) => z.number().int().meta({ description: `How many ${what}.` });
const cents = (what: string) => z.number().int().meta({ description: `${what}, in cents.` });
const amounts = z.object({ count: count('documents'), total_ht: cents('Total excluding VAT'), total_tva: cents('VAT'), total_ttc: cents('Total including VAT') });
const balance = z.object({ count: count('documents'), amount: z.number().int().meta({ description: 'Cents TTC still due.' }) });

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
    from: IsoDate.meta({ description: 'First issue date counted (Europe/Paris calendar day).' }),
    to: IsoDate.meta({ description: 'Last issue date counted (Europe/Paris calendar day).' }),
    as_of: IsoDate.meta({ description: 'Today (Europe/Paris): the day outstanding and overdue are measured.' }),
    invoiced: amounts.meta({ description: 'Finalized invoices and deposit invoices issued in the range (cancelled ones included: their credit note counts below).' }),
    credited: amounts.meta({ description: 'Finalized credit notes issued in the range.' }),
    net: z.object({ total_ht: cents('Net total excluding VAT'), total_tva: cents('Net VAT'), total_ttc: cents('Net total including VAT') }).meta({ description: 'invoiced − credited.' }),
    collected: z.object({ count: count('payments'), amount: cents('Sum of the payments, refunds deducted') }).meta({ description: 'Payments received (paid_at) in the range.' }),
    outstanding: balance.meta({
      description: 'Today, whatever the range: finalized or sent invoices and deposits with total_ttc − payments − their credit note > 0.',
    }),
    overdue: balance.meta({ description: 'The outstanding ones whose due date has passed.' }),
    drafts: z.object({ count: count('drafts') }).meta({ description: 'Drafts of any type, whatever their date.' }),
    quotes: z
      .object({
        open: z.object({ count: count('quotes'), total_ht: cents('Their total excluding VAT') }).meta({ description: 'Finalized or sent, not answered yet.' }),
        accepted: z.object({ count: count('quotes'), total_ht: cents('Their total excluding VAT') }).meta({ description: 'Accepted (converted or not).' }),
        rejected: z.object({ count: count('quotes') }).meta({ description: 'Rejected by the client.' }),
        expired: z.object({ count: count('quotes') }).meta({ description: 'Past their validity date unanswered.' }),
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
  net_tva: z.number().int().meta({ description: 'VAT of the invoices less that of the credit notes, cents.' }),
  net_ttc: z.number().int().meta({ description: 'net_ht + net_tva, cents.' }),
};

export const Revenue = z
  .object({
    from: IsoDate.meta({ description: 'First issue date counted.' }),
    to: IsoDate.meta({ description: 'Last issue date counted.' }),
    months: z
      .array(
        z.object({
          month: z.string().meta({ description: 'YYYY-MM (issue date, Europe/Paris).' }),
          ...revenueFigures,
          invoice_count: count('invoices and deposit invoices'),
          credit_note_count: count('credit notes'),
        }),
      )
      .meta({ description: 'One per month of the range, oldest first, months without documents included.' }),
    total: z.object(revenueFigures).meta({ description: 'The whole range.' }),
  })
  .meta({ id: 'Revenue', description: 'Revenue per month of issue date, every month of the range present, credit notes netted.' });
export type Revenue = z.infer<typeof Revenue>;

export const RevenueByClientQuery = RevenueQuery.safeExtend({
  limit: z.coerce.number().int().min(1).max(100).default(10).meta({ description: 'How many clients, 1 to 100; 10 when omitted.' }),
});
export type RevenueByClientQuery = z.output<typeof RevenueByClientQuery>;

export const RevenueByClient = z
  .object({
    from: IsoDate.meta({ description: 'First issue date counted.' }),
    to: IsoDate.meta({ description: 'Last issue date counted.' }),
    data: z
      .array(
        z.object({
          contact_id: z.uuid().meta({ description: 'The client.' }),
          contact_name: nullableString.meta({ description: 'As invoiced (the latest finalized document’s client snapshot).' }),
          ...revenueFigures,
          document_count: count('finalized invoices, deposits and credit notes'),
        }),
      )
      .meta({ description: 'The clients, largest net revenue first.' }),
  })
  .meta({ id: 'RevenueByClient', description: 'Net revenue per client over the range, largest first.' });
export type RevenueByClient = z.infer<typeof RevenueByClient>;

export const ClientSummaryQuery = z.object({ contact_id: z.uuid({ error: 'must be a contact id' }).meta({ description: 'The client summarised.' }) });

export const ClientSummary = z
  .object({
    contact_id: z.uuid().meta({ description: 'The client.' }),
    contact_name: nullableString.meta({ description: 'The live contact, or null when it no longer exists.' }),
    as_of: IsoDate.meta({ description: 'Today (Europe/Paris): the day outstanding and overdue are measured.' }),
    drafts: z.object({ count: count('drafts') }).meta({ description: 'The client’s drafts of any type.' }),
    quotes: z
      .object({
        count: z.number().int().meta({ description: 'Finalized quotes.' }),
        open: count('quotes finalized or sent, not answered yet'),
        accepted: count('quotes accepted'),
        accepted_ht: cents('Total excluding VAT of the accepted quotes'),
      })
      .meta({ description: 'The client’s quotes.' }),
    invoiced: amounts.meta({ description: 'Finalized invoices and deposit invoices.' }),
    credited: amounts.meta({ description: 'Finalized credit notes.' }),
    paid: z.object({ count: count('payments'), amount: cents('Sum of the payments, refunds deducted') }).meta({ description: 'Payments received.' }),
    outstanding: balance.meta({ description: 'Finalized or sent invoices and deposits with something still due.' }),
    overdue: balance.meta({ description: 'The outstanding ones whose due date has passed.' }),
    first_issue_date: IsoDate.nullable().meta({ description: 'Issue date of the client’s first finalized document; null when none.' }),
    last_issue_date: IsoDate.nullable().meta({ description: 'Issue date of the client’s last finalized document; null when none.' }),
  })
  .meta({ id: 'ClientSummary', description: 'Everything billed to one client, all time.' });
export type ClientSummary = z.infer<typeof ClientSummary>;
