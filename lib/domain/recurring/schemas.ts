import { z } from 'zod';
import { OPERATION_NATURES } from '@/db/schema/billing';
import { RECURRING_COLLECT_STATUSES, RECURRING_FREQUENCIES, RECURRING_GENERATION_STAGES, RECURRING_GENERATION_STATUSES } from '@/db/schema/recurring';
import { ItemInput } from '@/lib/domain/documents';
import { PageQuery } from '@/lib/platform/http';
import { Cents, Dec, decimalString, isDecimalString, MAX_UNIT_PRICE, VatRate } from '@/lib/platform/money';
import { IsoDate, nullableString, Timestamp, text } from '@/lib/platform/contract';

export { RECURRING_FREQUENCIES };
export const RECURRING_STATUSES = ['active', 'paused'] as const;
export const MAX_TEMPLATE_LINES = 200;

/** The spec's template line: a document line without a catalogue product; description, unit_price and vat_rate required. */
export const TemplateLine = ItemInput.omit({ product_id: true })
  .extend({
    description: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'required' })
      .max(1000, { error: 'at most 1000 characters' })
      .meta({ description: 'What is sold, as printed on each invoice; 1 to 1000 characters.' }),
    unit_price: Cents(MAX_UNIT_PRICE).meta({ description: 'Cents excluding VAT, >= 0; for a discount, the amount taken off.' }),
    vat_rate: VatRate,
  })
  // The spec's template line has a strictly positive quantity: a product line of "-1" (a discount, in a document's
  // lines) is refused, not stored as a discount; a discount is kind discount, its quantity omitted (or the "-1" it
  // reads back as, so that a template's items can be sent back unchanged).
  .superRefine((l, ctx) => {
    if (l.kind === 'discount' || typeof l.quantity !== 'string' || !isDecimalString(l.quantity) || new Dec(l.quantity).gt(0)) return;
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'must be strictly positive (a discount is a line of kind discount, without quantity)' });
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
  contact_id: z.uuid({ error: 'must be a contact id' }).meta({ description: 'The client invoiced: a contact of the org.' }),
  frequency: z.enum(RECURRING_FREQUENCIES, { error: 'must be monthly, quarterly or yearly' }).meta({ description: 'monthly, quarterly or yearly.' }),
  items: Lines.meta({ description: `The lines of each invoice, 1 to ${MAX_TEMPLATE_LINES}.` }),
  next_generation_date: IsoDate.meta({ description: 'The first period (Europe/Paris); its day of month is the anchor day later dates keep.' }),
  title: text(300).meta({ description: 'Title of each invoice, at most 300 characters.' }),
  notes: text(10_000).meta({ description: 'Text printed below the totals of each invoice.' }),
  operation_nature: z.enum(OPERATION_NATURES, { error: 'must be biens, services or mixte' }).nullish().meta({ description: 'biens, services or mixte, printed on each invoice; required when auto_send is true.' }),
  auto_send: z.boolean({ error: 'must be true or false' }).meta({ description: 'Send each invoice to the contact once finalized; false when omitted.' }),
  auto_collect_sepa: z.boolean({ error: 'must be true or false' }).meta({ description: 'Debit each invoice from the contact’s active SEPA mandate; false when omitted.' }),
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
    contact_id: fields.contact_id.optional().meta({ description: 'Another client.' }),
    frequency: fields.frequency.optional().meta({ description: 'monthly, quarterly or yearly.' }),
    items: fields.items.optional().meta({ description: 'The lines; replace the whole set.' }),
    next_generation_date: fields.next_generation_date.optional(),
    title: fields.title.meta({ description: 'Title of each invoice; null clears it.' }),
    notes: fields.notes.meta({ description: 'Text below the totals; null clears it.' }),
    operation_nature: fields.operation_nature.meta({ description: 'biens, services or mixte; null clears it (not while auto_send is true).' }),
    auto_send: fields.auto_send.optional().meta({ description: 'Send each invoice once finalized.' }),
    auto_collect_sepa: fields.auto_collect_sepa.optional().meta({ description: 'Debit each invoice from the contact’s SEPA mandate.' }),
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
    kind: z.enum(['product', 'discount']).meta({ description: 'product or discount.' }),
    description: z.string().meta({ description: 'What is sold, as printed.' }),
    details: nullableString.meta({ description: 'More text under the description; null when none.' }),
    position: z.number().int().meta({ description: 'Order on the invoice, from 0.' }),
    quantity: decimalString('quantity', 'Decimal string, at most 4 decimals, without trailing zeros; a discount reads back "-1".'),
    unit: nullableString.meta({ description: 'UN/ECE Rec 20 unit code; null when none.' }),
    unit_price: z.number().int().meta({ description: 'Cents excluding VAT; for a discount, the amount taken off.' }),
    vat_rate: decimalString('rate', 'VAT rate in percent, a decimal string with two decimals ("20.00").'),
    vat_category: z.string().meta({ description: 'EN 16931 VAT category: S, Z, E, AE, K, G or O.' }),
    vat_exemption_reason: nullableString.meta({ description: 'VATEX code of a 0 % line; null otherwise.' }),
  })
  .meta({ id: 'RecurringLine', description: 'A line of the invoices the template issues.' });

export const RecurringTemplate = z
  .object({
    id: z.uuid().meta({ description: 'The template’s id.' }),
    contact_id: z.uuid().meta({ description: 'The client invoiced.' }),
    frequency: z.enum(RECURRING_FREQUENCIES).meta({ description: 'monthly, quarterly or yearly.' }),
    items: z.array(TemplateLineView).meta({ description: 'The lines of each invoice.' }),
    next_generation_date: z.string().meta({ description: 'The next period to invoice (Europe/Paris calendar day, YYYY-MM-DD).' }),
    title: nullableString.meta({ description: 'Title of each invoice; null when none.' }),
    notes: nullableString.meta({ description: 'Text below the totals; null when none.' }),
    operation_nature: z.enum(OPERATION_NATURES).nullable().meta({ description: 'biens, services or mixte; null when not set.' }),
    auto_send: z.boolean().meta({ description: 'Each invoice is sent once finalized.' }),
    auto_collect_sepa: z.boolean().meta({ description: 'Each invoice is debited from the contact’s SEPA mandate.' }),
    paused_at: Timestamp.nullable().meta({ description: 'When it was paused; null while active.' }),
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
  status: z.enum(RECURRING_STATUSES, { error: 'must be active or paused' }).optional().meta({ description: 'Only templates in this status.' }),
  contact_id: z.uuid({ error: 'must be a contact id' }).optional().meta({ description: 'Only this contact’s templates.' }),
});
export type RecurringListQuery = z.output<typeof RecurringListQuery>;

/** One period of a template: the payload of recurring_invoice.generated and .failed, and the template's history. */
export const RecurringGeneration = z
  .object({
    id: z.uuid().meta({ description: 'The generation’s id.' }),
    template_id: z.uuid().meta({ description: 'Its template.' }),
    period_start: z.string().meta({ description: 'The period invoiced (Europe/Paris calendar day, YYYY-MM-DD).' }),
    document_id: z.uuid().nullable().meta({ description: 'The invoice issued; null when it failed before one existed.' }),
    status: z.enum(RECURRING_GENERATION_STATUSES).meta({ description: 'generated, sent (auto_send) or failed.' }),
    stage: z.enum(RECURRING_GENERATION_STAGES).nullable().meta({ description: 'Where it failed: generate, finalize or send.' }),
    error: nullableString.meta({ description: 'Why it failed; null otherwise.' }),
    source: z.enum(['run', 'schedule']).meta({ description: 'run (asked through the API) or schedule (the daily run).' }),
    collect_status: z.enum(RECURRING_COLLECT_STATUSES).nullable().meta({ description: 'auto_collect_sepa: the off-session debit.' }),
    collect_error: nullableString.meta({ description: 'Why the debit failed; null otherwise.' }),
    online_payment_id: z.uuid().nullable().meta({ description: 'The online payment of the debit; null when none.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'RecurringGeneration' });
export type RecurringGeneration = z.infer<typeof RecurringGeneration>;
