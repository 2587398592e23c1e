import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { documents, OPERATION_NATURES } from './billing';
import { createdAt, id, updatedAt } from './columns';
import { contacts } from './contacts';
import { orgs } from './orgs';

export const RECURRING_FREQUENCIES = ['monthly', 'quarterly', 'yearly'] as const;
export type RecurringFrequency = (typeof RECURRING_FREQUENCIES)[number];

/**
 * A generation's progress: `generated` (the draft exists), `sent` (auto_send: finalized and e-mailed), `failed`
 * (`stage` says where: generate, finalize, send; `error` why). A failed generate leaves no document.
 */
export const RECURRING_GENERATION_STATUSES = ['generated', 'sent', 'failed'] as const;
export const RECURRING_GENERATION_STAGES = ['generate', 'finalize', 'send'] as const;
/** The SEPA debit of an auto-sent invoice (auto_collect_sepa): requested once, then processing or failed. */
export const RECURRING_COLLECT_STATUSES = ['processing', 'failed'] as const;

/** One line of a template: a document line without its totals (lib/domain/recurring/schemas.ts TemplateLine). */
export interface RecurringLine {
  kind: 'product' | 'discount';
  description: string;
  details: string | null;
  position: number;
  quantity: string;
  unit: string | null;
  unit_price: number;
  vat_rate: string;
  vat_category: string;
  vat_exemption_reason: string | null;
}

/**
 * A recurring invoice template (DESIGN §9): on each `next_generation_date` (Europe/Paris) a draft facture is made from
 * its lines, then the date advances by its frequency keeping `anchor_day` (31 Jan → 28/29 Feb → 31 Mar). Active while
 * `paused_at` is null. `last_error` / `last_error_at` keep the reason of the last failed generation or delivery.
 */
export const recurringTemplates = pgTable(
  'recurring_templates',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    contact_id: uuid('contact_id')
      .notNull()
      .references(() => contacts.id),
    frequency: text('frequency', { enum: RECURRING_FREQUENCIES }).notNull(),
    items: jsonb('items').$type<RecurringLine[]>().notNull(),
    next_generation_date: date('next_generation_date', { mode: 'string' }).notNull(),
    /** Day of month (1–31) every generation date aims at; a shorter month takes its last day. */
    anchor_day: integer('anchor_day').notNull(),
    title: text('title'),
    notes: text('notes'),
    operation_nature: text('operation_nature', { enum: OPERATION_NATURES }),
    auto_send: boolean('auto_send').notNull().default(false),
    auto_collect_sepa: boolean('auto_collect_sepa').notNull().default(false),
    paused_at: timestamp('paused_at', { withTimezone: true }),
    last_error: text('last_error'),
    last_error_at: timestamp('last_error_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    // The hourly schedule's scan: active templates by date, across orgs.
    index('recurring_templates_due').on(t.next_generation_date).where(sql`${t.paused_at} is null`),
    index('recurring_templates_org').on(t.org_id, t.id),
    index('recurring_templates_contact').on(t.contact_id),
  ],
);

/**
 * One period of a template, generated at most once: the unique (template_id, period_start) is the exactly-once key
 * (catch-up, racing workers, a manual run). Written in the transaction that creates the draft and advances the date.
 */
export const recurringGenerations = pgTable(
  'recurring_generations',
  {
    id: id(),
    org_id: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    template_id: uuid('template_id')
      .notNull()
      .references(() => recurringTemplates.id, { onDelete: 'cascade' }),
    period_start: date('period_start', { mode: 'string' }).notNull(),
    /** The generated draft (it stays when the template goes); null when generating failed. */
    document_id: uuid('document_id').references(() => documents.id, { onDelete: 'set null' }),
    status: text('status', { enum: RECURRING_GENERATION_STATUSES }).notNull(),
    stage: text('stage', { enum: RECURRING_GENERATION_STAGES }),
    error: text('error'),
    /** 'run' (POST …/run) or 'schedule'. */
    source: text('source', { enum: ['run', 'schedule'] }).notNull(),
    collect_status: text('collect_status', { enum: RECURRING_COLLECT_STATUSES }),
    collect_error: text('collect_error'),
    /** The off-session debit (online_payments row), once requested. */
    online_payment_id: uuid('online_payment_id'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('recurring_generations_period').on(t.template_id, t.period_start),
    index('recurring_generations_org').on(t.org_id, t.template_id, t.id),
  ],
);
