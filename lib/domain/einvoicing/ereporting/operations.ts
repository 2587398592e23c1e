import { operation } from '@/lib/platform/contract';
import { EReportingData, EReportingQuery } from './schemas';

export const ereportingOperation = operation({
  method: 'get',
  path: '/v1/invoices/ereporting',
  operationId: 'getEreportingReport',
  tag: 'Invoices',
  summary: 'E-reporting data of a period (B2C and international sales, payments for services)',
  description:
    'What the org’s Plateforme Agréée transmits to the administration for the sales that are not e-invoiced (CGI art. 290, 290 A): ' +
    'totals per day, VAT category and rate, in cents, credit notes negative; and the payments collected for services taxed on receipts. ' +
    'Paraphe supplies the data, the PA transmits it (docs/einvoicing.md). from and to: at most one year apart, else 422.',
  scope: 'invoice:read',
  query: EReportingQuery,
  responses: { 200: { description: 'The period’s data.', schema: EReportingData } },
});

export const ereportingOperations = [ereportingOperation];
