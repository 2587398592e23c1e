import { z } from 'zod';
import { OPERATION_NATURES } from '@/db/schema/billing';
import { RECURRING_COLLECT_STATUSES, RECURRING_FREQUENCIES, RECURRING_GENERATION_STAGES, RECURRING_GENERATION_STATUSES } from '@/db/schema/recurring';
import { ItemInput } from '@/lib/documents';
import { PageQuery } from '@/lib/http/pagination';
import { Cents, MAX_UNIT_PRICE, VatRate } from '@/lib/money';
import { IsoDate, nullableString, Timestamp, text } from '@/lib/openapi/schemas';

export { RECURRING_FREQUENCIES };
export const RECURRING_STATUSES = ['active', 'paused'] as const;
export const MAX_TEMPLATE_LINES = 200;

/** The spec's template line: a document line without a catalogue product; description, unit_price and vat_rate required. */
export const TemplateLine = ItemInput.omit({ product_id: true })
  .extend({
    description: z.string({ error: 'must be a string' }).trim().min(1, { error: 'required' }).max(1000, { error: 'at most 1000 characters' }),
    unit_price: Cents(MAX_UNIT_PRICE).meta({ description: 'Cents excluding VAT, >= 0; for a discount, the amount taken off.' }),
    vat_rate: VatRate,
  })
  .meta({
    id: 'RecurringLineInput',
    description:
      'description, quantity (decimal string > 0; omitted for a discount), unit_price (cents >= 0), vat_rate (0–100); optional details, kind ' +
      '(product or discount), position (defaults to the index), and the document line extensions unit, vat_category, vat_exemption_reason. ' +
      'A discount must match the VAT rate of a line it reduces and cannot exceed the subtotal at that rate.',
  });
export type TemplateLine = z.output<typeof TemplateLine>;

const Lines = z
  .array(TemplateLine, { error: 'must be an array of lines' })
  .min(1, { error: 'at least one line' })
  .max(MAX_TEMPLATE_LINES, { error: `at most ${MAX_TEMPLATE_LINES} lines` });

const fields = {
  contact_id: z.uuid({ error: 'must be a contact id' }),
  frequency: z.enum(RECURRING_FREQUENCIES, { error: 'must be monthly, quarterly or yearly' }),
  items: Lines,
  next_generation_date: IsoDate.meta({ description: 'The first period (Europe/Paris); its day of month is the anchor day later dates keep.' }),
  title: text(300),
  notes: text(10_000),
  operation_nature: z.enum(OPERATION_NATURES, { error: 'must be biens, services or mixte' }).nullish(),
  auto_send: z.boolean({ error: 'must be true or false' }),
  auto_collect_sepa: z.boolean({ error: 'must be true or false' }),
};

const autoSendNeedsNature = (t: { auto_send?: boolean; operation_nature?: string | null }, ctx: z.RefinementCtx) => {
  if (t.auto_send && !t.operation_nature) {
    ctx.addIssue({ code: 'custom', path: ['operation_nature'], message: 'required when auto_send is true' });
  }
};

export const RecurringTemplateCreate = z
  .strictObject({ ...fields, auto_send: fields.auto_send.default(false), auto_collect_sepa: fields.auto_collect_sepa.default(false) })
  .superRefine(autoSendNeedsNature)
  .meta({ id: 'RecurringTemplateCreate', description: 'auto_send true requires operation_nature (a mandatory mention checked at finalization).' });
export type RecurringTemplateCreate = z.output<typeof RecurringTemplateCreate>;

/** PATCH: omitted key unchanged, null clears title, notes or operation_nature; the result is checked as a whole. */
export const RecurringTemplatePatch = z
  .strictObject({
    contact_id: fields.contact_id.optional(),
    frequency: fields.frequency.optional(),
    items: fields.items.optional(),
    next_generation_date: fields.next_generation_date.optional(),
    title: fields.title,
    notes: fields.notes,
    operation_nature: fields.operation_nature,
    auto_send: fields.auto_send.optional(),
    auto_collect_sepa: fields.auto_collect_sepa.optional(),
  })
  .meta({
    id: 'RecurringTemplatePatch',
    description:
      'The creation fields, each optional: omitted unchanged, null clears title, notes or operation_nature; items replace the set. ' +
      'A new next_generation_date also sets the anchor day. The template after the change must still be valid (auto_send needs operation_nature).',
  });
export type RecurringTemplatePatch = z.output<typeof RecurringTemplatePatch>;

export const TemplateLineView = z
  .object({
    kind: z.enum(['product', 'discount']),
    description: z.string(),
    details: nullableString,
    position: z.number().int(),
    quantity: z.string().meta({ description: 'A discount reads back "-1".' }),
    unit: nullableString,
    unit_price: z.number().int(),
    vat_rate: z.string(),
    vat_category: z.string(),
    vat_exemption_reason: nullableString,
  })
  .meta({ id: 'RecurringLine' });

export const RecurringTemplate = z
  .object({
    id: z.uuid(),
    contact_id: z.uuid(),
    frequency: z.enum(RECURRING_FREQUENCIES),
    items: z.array(TemplateLineView),
    next_generation_date: z.string(),
    title: nullableString,
    notes: nullableString,
    operation_nature: z.enum(OPERATION_NATURES).nullable(),
    auto_send: z.boolean(),
    auto_collect_sepa: z.boolean(),
    paused_at: Timestamp.nullable(),
    status: z.enum(RECURRING_STATUSES).meta({ description: 'active while paused_at is null.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    anchor_day: z.number().int().meta({ description: 'Extension: the day of month generation dates keep (a shorter month takes its last day).' }),
    total_ht: z.number().int().meta({ description: 'Extension: cents excluding VAT of each generated invoice.' }),
    total_ttc: z.number().int().meta({ description: 'Extension: cents including VAT of each generated invoice.' }),
    last_error: nullableString.meta({ description: 'Extension: why the last generation or delivery failed (null once one succeeds).' }),
    last_error_at: Timestamp.nullable().meta({ description: 'Extension.' }),
  })
  .meta({ id: 'RecurringTemplate' });
export type RecurringTemplate = z.infer<typeof RecurringTemplate>;

export const RecurringListQuery = PageQuery.extend({
  status: z.enum(RECURRING_STATUSES, { error: 'must be active or paused' }).optional(),
  contact_id: z.uuid({ error: 'must be a contact id' }).optional(),
});
export type RecurringListQuery = z.output<typeof RecurringListQuery>;

/** One period of a template: the payload of recurring_invoice.generated and .failed, and the template's history. */
export const RecurringGeneration = z
  .object({
    id: z.uuid(),
    template_id: z.uuid(),
    period_start: z.string(),
    document_id: z.uuid().nullable(),
    status: z.enum(RECURRING_GENERATION_STATUSES),
    stage: z.enum(RECURRING_GENERATION_STAGES).nullable().meta({ description: 'Where it failed: generate, finalize or send.' }),
    error: nullableString,
    source: z.enum(['run', 'schedule']),
    collect_status: z.enum(RECURRING_COLLECT_STATUSES).nullable().meta({ description: 'auto_collect_sepa: the off-session debit.' }),
    collect_error: nullableString,
    online_payment_id: z.uuid().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'RecurringGeneration' });
export type RecurringGeneration = z.infer<typeof RecurringGeneration>;
