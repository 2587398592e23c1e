import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { orgs } from './orgs';

/**
 * The accounts an org's sales journal is written to (lib/domain/exports, the FEC). One per org, absent until first saved:
 * the defaults are the French chart of accounts' (PCG). Not in invoice_settings, whose API shape the spec fixes.
 */
export const exportSettings = pgTable('export_settings', {
  org_id: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  client_account: text('client_account').notNull().default('411000'),
  revenue_account: text('revenue_account').notNull().default('706000'),
  vat_account: text('vat_account').notNull().default('445710'),
  journal_code: text('journal_code').notNull().default('VE'),
  journal_label: text('journal_label').notNull().default('Ventes'),
  /** The settings added since (migration 0035): per-rate and goods accounts, the bank journal. A key absent → its default. */
  accounts: jsonb('accounts').notNull().default({}),
  created_at: createdAt(),
  updated_at: updatedAt(),
});
