import type { OPERATION_NATURES } from '@/db/schema/billing';
import type { VatCategory } from '@/lib/platform/money';
import { emptyLine, itemsPayload, type LineDraft, linesFromItems, type StoredLine as DocumentLine } from '../documents/editor-model';
import type { Frequency } from './labels';

/*
 * The recurring template editor's model (browser and tests): its texts, the API payload (RecurringTemplateCreate or
 * RecurringTemplatePatch) and the forms a template, an invoice or nothing start from. The lines are the document
 * editor's (documents/editor-model.ts): the same texts, the same euros to cents, the same live totals.
 */

type Nature = (typeof OPERATION_NATURES)[number];

export interface TemplateForm {
  contact_id: string;
  frequency: Frequency;
  next_generation_date: string;
  title: string;
  notes: string;
  operation_nature: '' | Nature;
  auto_send: boolean;
  auto_collect_sepa: boolean;
  lines: LineDraft[];
}

/** A new template: monthly from today, one blank line, nothing automatic. */
export function newTemplateForm(today: string): TemplateForm {
  return {
    contact_id: '',
    frequency: 'monthly',
    next_generation_date: today,
    title: '',
    notes: '',
    operation_nature: '',
    auto_send: false,
    auto_collect_sepa: false,
    lines: [emptyLine()],
  };
}

/** A stored line (the template's or an invoice's); a template's VAT category reads back as a string. */
type StoredLine = Omit<DocumentLine, 'vat_category' | 'product_id'> & { vat_category: string };

// A catalogue product is not kept on a template: its lines are texts and amounts.
const toLines = (items: readonly StoredLine[]): LineDraft[] =>
  linesFromItems(items.map((it) => ({ ...it, vat_category: it.vat_category as VatCategory, product_id: null })));

export interface StoredTemplate {
  contact_id: string;
  frequency: Frequency;
  next_generation_date: string;
  title: string | null;
  notes: string | null;
  operation_nature: Nature | null;
  auto_send: boolean;
  auto_collect_sepa: boolean;
  items: readonly StoredLine[];
}

export function formFromTemplate(t: StoredTemplate): TemplateForm {
  return {
    contact_id: t.contact_id,
    frequency: t.frequency,
    next_generation_date: t.next_generation_date,
    title: t.title ?? '',
    notes: t.notes ?? '',
    operation_nature: t.operation_nature ?? '',
    auto_send: t.auto_send,
    auto_collect_sepa: t.auto_collect_sepa,
    lines: toLines(t.items),
  };
}

/** "Créer un modèle récurrent" on an invoice: its client, texts, nature and lines, monthly from `next` (the page's choice). */
export function formFromInvoice(
  doc: { contact_id: string; title: string | null; notes: string | null; operation_nature: Nature | null; items?: readonly StoredLine[] | null },
  next: string,
): TemplateForm {
  const lines = toLines(doc.items ?? []);
  return {
    contact_id: doc.contact_id,
    frequency: 'monthly',
    next_generation_date: next,
    title: doc.title ?? '',
    notes: doc.notes ?? '',
    operation_nature: doc.operation_nature ?? '',
    auto_send: false,
    auto_collect_sepa: false,
    lines: lines.length ? lines : [emptyLine()],
  };
}

/**
 * The API payload of the form, and the amounts that are not euros (keyed `items.2.unit_price`). A blank text is
 * omitted on create and null on update (it clears the field); the server checks the rest (auto_send needs the nature).
 */
export function toTemplatePayload(form: TemplateForm, mode: 'create' | 'update'): { payload: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const blank = mode === 'create' ? undefined : null;
  const opt = (s: string) => (s.trim() === '' ? blank : s.trim());
  const items = itemsPayload(form.lines, errors).map(({ product_id: _, ...line }) => line);
  const payload: Record<string, unknown> = {
    contact_id: form.contact_id || undefined,
    frequency: form.frequency,
    next_generation_date: form.next_generation_date || undefined,
    title: opt(form.title),
    notes: opt(form.notes),
    operation_nature: form.operation_nature || blank,
    auto_send: form.auto_send,
    auto_collect_sepa: form.auto_collect_sepa,
    items,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return { payload, errors };
}
