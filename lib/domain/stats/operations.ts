import { operation } from '@/lib/platform/contract';
import { ClientSummary, ClientSummaryQuery, InvoiceStats, Revenue, RevenueByClient, RevenueByClientQuery, RevenueQuery, StatsQuery } from './schemas';

const tag = 'Invoices';

export const statsOperation = operation({
  method: 'get',
  path: '/v1/invoices/stats',
  tag,
  summary: 'Billing figures over an issue-date range',
  description: 'docs/billing.md describes every figure.',
  scope: 'invoice:read',
  query: StatsQuery,
  responses: { 200: { description: 'The figures.', schema: InvoiceStats } },
});

export const revenueOperation = operation({
  method: 'get',
  path: '/v1/invoices/revenue',
  tag,
  summary: 'Revenue per month, credit notes netted',
  scope: 'invoice:read',
  query: RevenueQuery,
  responses: { 200: { description: 'Every month of the range.', schema: Revenue } },
});

export const revenueByClientOperation = operation({
  method: 'get',
  path: '/v1/invoices/revenue/by-client',
  tag,
  summary: 'Revenue per client, largest first',
  scope: 'invoice:read',
  query: RevenueByClientQuery,
  responses: { 200: { description: 'The clients of the range.', schema: RevenueByClient } },
});

export const clientSummaryOperation = operation({
  method: 'get',
  path: '/v1/invoices/client-summary',
  tag,
  summary: 'Everything billed to one client',
  description: '404 when the contact is not one of the org’s.',
  scope: 'invoice:read',
  query: ClientSummaryQuery,
  responses: { 200: { description: 'The summary.', schema: ClientSummary } },
  errors: [[404, 'not_found']],
});

export const statsOperations = [statsOperation, revenueOperation, revenueByClientOperation, clientSummaryOperation];
