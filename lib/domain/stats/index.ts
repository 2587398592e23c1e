import { defineModule } from '@/lib/platform/manifest';
import { statsOperations } from './operations';

/** Receivables, revenue and client summaries, read from the documents and their payments. */
export const manifest = defineModule({ name: 'stats', operations: statsOperations });

export { statsOperations } from './operations';
export { clientSummary, invoiceStats, revenueByClient, revenueByMonth } from './stats';
export { clientSummaryOperation, revenueByClientOperation, revenueOperation } from './operations';
export { statsOperation } from './operations';
