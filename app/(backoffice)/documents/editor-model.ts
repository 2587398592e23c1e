import type { DocumentType, OPERATION_NATURES, PAYMENT_PLAN_KINDS, VAT_EXIGIBILITIES } from '@/db/schema/billing';
import { addDays, dueDateFromTerms } from '@/lib/platform/dates';
import { formatDecimalAsTyped, formatMoneyInput } from '@/lib/platform/format';
import { AmountOverflowError, computeTotals, type DocumentTotals, defaultVatCategory, type TotalsLine, type VatCategory } from '@/lib/platform/money';
import { categoryOf, eurosToCents, isPercentDiscount, quantityText, resolveDiscounts, validQuantity, validRate } from './editor-values';

export { categoryOf, discountAmount, eurosToCents, isPercentDiscount, isZeroRate, quantityText, resolveDiscounts } from './editor-values';

/*
 * The document editor's model, shared by the browser (live totals, payload) and its tests. Inputs are text as
 * typed ("1 200,50" €, "2,5"); amounts become integer cents and quantities decimal strings, and the totals come
 * from lib/platform/money, the module the server computes with, so the editor shows the numbers the server will store.
 */

/** One line as the editor holds it: the texts of its inputs. */
export interface LineDraft {
  /** React key; never sent. */
  key: string;
  kind: 'product' | 'discount';
  description: string;
  details: string;
  /** As typed ("2,5"); a discount has none (it is stored as "-1"). */
  quantity: string;
  /** UN/ECE Rec 20 code, or '' for none. */
  unit: string;
  /** Euros as typed, excluding VAT; a discount's is the amount taken off. */
  unit_price: string;
  /**
   * A discount given as a percentage, as typed ("10" or "12,5"): its amount is computed from the subtotal of its VAT
   * group (discountAmount) and replaces unit_price. The API stores only the amount; '' or absent for an amount typed.
   */
  discount_percent?: string;
  /** Two decimals ("20.00"). */
  vat_rate: string;
  /** '' is the rate's default (S above 0 %, E at 0 %). */
  vat_category: VatCategory | '';
  /** The exemption reason of a 0 % line (VATEX code); absent or '' for none. */
  vat_exemption_reason?: string;
  product_id: string | null;
}

export interface DeliveryDraft {
  name: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
}

export interface DraftForm {
  contact_id: string;
  issue_date: string;
  due_date: string;
  validity_date: string;
  service_date: string;
  title: string;
  description: string;
  notes: string;
  payment_terms: string;
  payment_method: string;
  discount_terms: string;
  execution_timeline: string;
  operation_nature: '' | (typeof OPERATION_NATURES)[number];
  vat_exigibility: '' | (typeof VAT_EXIGIBILITIES)[number];
  deposit_request_percentage: string;
  payment_plan_kind: (typeof PAYMENT_PLAN_KINDS)[number];
  /** The plan's percentage (deposit then balance) or number of installments, as typed. */
  payment_plan_value: string;
  delivery: DeliveryDraft;
  lines: LineDraft[];
}

/*
 * React keys must be unique within the list: the page renders the first lines on the server and the browser adds
 * more, each counting from 1, so a bare counter gave two "line-1" (issue 35, item 15). A seed per module instance
 * (one on the server, one in each browser tab) keeps them apart.
 */
const keySeed = Math.random().toString(36).slice(2, 8);
let lastKey = 0;
export const newLineKey = () => `line-${keySeed}-${++lastKey}`;

export function emptyLine(kind: LineDraft['kind'] = 'product', vatRate = '20.00'): LineDraft {
  return {
    key: newLineKey(),
    kind,
    description: kind === 'discount' ? 'Remise' : '',
    details: '',
    quantity: kind === 'discount' ? '' : '1',
    unit: '',
    unit_price: '',
    vat_rate: vatRate,
    vat_category: '',
    product_id: null,
  };
}

// ─── Live totals ────────────────────────────────────────────────────────────

export interface LiveTotals {
  /** Each line's net (total HT) in cents, null while its inputs are incomplete. */
  lines: Array<number | null>;
  /** The document's totals over the complete lines; null when an amount is beyond what the API accepts. */
  totals: DocumentTotals | null;
}

function totalsLineOf(line: LineDraft): TotalsLine | null {
  const unit_price = eurosToCents(line.unit_price);
  const quantity = line.kind === 'discount' ? '-1' : validQuantity(line.quantity);
  if (unit_price === null || quantity === null || !validRate(line.vat_rate)) return null;
  return { kind: line.kind, quantity, unit_price, vat_rate: line.vat_rate, vat_category: categoryOf(line) };
}

/** The totals of lib/platform/money over the lines that are complete: what the server will compute for them. */
export function liveTotals(typed: readonly LineDraft[]): LiveTotals {
  const lines = resolveDiscounts(typed);
  const complete: TotalsLine[] = [];
  const at: number[] = [];
  lines.forEach((line, i) => {
    const t = totalsLineOf(line);
    if (t) {
      complete.push(t);
      at.push(i);
    }
  });
  try {
    const totals = computeTotals(complete);
    const perLine: Array<number | null> = lines.map(() => null);
    at.forEach((lineIndex, j) => {
      perLine[lineIndex] = totals.lines[j]!.total_ht;
    });
    return { lines: perLine, totals };
  } catch (err) {
    if (err instanceof AmountOverflowError) return { lines: lines.map(() => null), totals: null };
    throw err;
  }
}

// ─── Lines ──────────────────────────────────────────────────────────────────

/** The lines with the one at `from` moved by `delta` places (kept inside the list). */
export function moveLine<T>(lines: readonly T[], from: number, delta: number): T[] {
  const to = Math.min(lines.length - 1, Math.max(0, from + delta));
  if (to === from) return [...lines];
  const next = [...lines];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** A catalogue product as the editor's picker receives it (its unit already a Rec 20 code). */
export interface ProductChoice {
  id: string;
  name: string;
  description: string | null;
  unit_code: string | null;
  unit_price_cents: number;
  vat_rate: string;
}

/** A line filled from a product: description, details, unit, unit price and VAT rate; the quantity is kept. */
export function lineFromProduct(product: ProductChoice, line: LineDraft = emptyLine()): LineDraft {
  return {
    ...line,
    kind: 'product',
    description: product.name,
    details: product.description ?? '',
    quantity: line.quantity || '1',
    unit: product.unit_code ?? '',
    unit_price: formatMoneyInput(product.unit_price_cents),
    vat_rate: product.vat_rate,
    vat_category: '',
    product_id: product.id,
  };
}

export const isBlankLine = (line: LineDraft) =>
  line.kind === 'product' && !line.description.trim() && !line.unit_price.trim() && !line.details.trim() && !line.product_id;

// ─── Dates and terms ────────────────────────────────────────────────────────

/** The due date an invoice gets from its payment terms (the server's rule, lib/platform/dates/dates). */
export const dueDateFor = (issueDate: string, terms: string) => dueDateFromTerms(issueDate, terms || null);

/** The last day a quote is valid: issue date + the settings' validity days. */
export const validityDateFor = (issueDate: string, days: number) => addDays(issueDate, days);

export interface ContactTerms {
  default_payment_terms: string | null;
  default_discount_terms: string | null;
}

/** The terms a draft takes from its client, else from the invoice settings (the server's draft defaults). */
export function termsFor(contact: ContactTerms, settings: ContactTerms) {
  return {
    payment_terms: contact.default_payment_terms ?? settings.default_payment_terms ?? '',
    discount_terms: contact.default_discount_terms ?? settings.default_discount_terms ?? '',
  };
}

// ─── Payload ────────────────────────────────────────────────────────────────

export const EUROS_HINT = 'Montant en euros, par exemple 1200 ou 49,90.';
export const PERCENT_HINT = 'Pourcentage entre 0 et 100, par exemple 10 ou 12,5.';

/**
 * The lines as the API's line inputs (a draft's items, a recurring template's), and the amounts that are not euros
 * added to `errors` (keyed `items.2.unit_price`).
 */
export function itemsPayload(typed: readonly LineDraft[], errors: Record<string, string>) {
  return resolveDiscounts(typed).map((line, i) => {
    const cents = eurosToCents(line.unit_price);
    if (cents === null) errors[`items.${i}.unit_price`] = isPercentDiscount(line) ? PERCENT_HINT : line.unit_price.trim() ? EUROS_HINT : 'required';
    return {
      kind: line.kind,
      description: line.description.trim(),
      details: line.details.trim() || null,
      ...(line.kind === 'discount' ? {} : { quantity: quantityText(line.quantity) }),
      unit: line.kind === 'discount' ? null : line.unit || null,
      unit_price: cents ?? 0,
      vat_rate: line.vat_rate,
      ...(line.vat_category ? { vat_category: line.vat_category } : {}),
      ...(line.vat_exemption_reason ? { vat_exemption_reason: line.vat_exemption_reason } : {}),
      product_id: line.product_id,
    };
  });
}

/**
 * The API payload (DocumentCreate or DocumentPatch) of the form, and the amounts that are not euros (keyed
 * like the API's fields: `items.2.unit_price`). A blank text is omitted on create (the server's default
 * applies) and null on update (it clears the field).
 */
export function toPayload(form: DraftForm, mode: 'create' | 'update'): { payload: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const blank = mode === 'create' ? undefined : null;
  const opt = (s: string) => (s.trim() === '' ? blank : s.trim());

  const items = itemsPayload(form.lines, errors);

  const d = form.delivery;
  const hasDelivery = [d.name, d.address, d.postal_code, d.city].some((s) => s.trim() !== '');
  const planValue = form.payment_plan_value.trim().replace(',', '.');
  const payment_plan_config =
    form.payment_plan_kind === 'deposit_then_balance'
      ? { percentage: planValue }
      : form.payment_plan_kind === 'installments'
        ? { count: /^\d+$/.test(planValue) ? Number(planValue) : planValue }
        : null;

  const payload: Record<string, unknown> = {
    contact_id: form.contact_id || undefined,
    issue_date: form.issue_date || undefined,
    due_date: opt(form.due_date),
    validity_date: opt(form.validity_date),
    service_date: opt(form.service_date),
    title: opt(form.title),
    description: opt(form.description),
    notes: opt(form.notes),
    payment_terms: opt(form.payment_terms),
    payment_method: opt(form.payment_method),
    discount_terms: opt(form.discount_terms),
    execution_timeline: opt(form.execution_timeline),
    operation_nature: form.operation_nature || blank,
    vat_exigibility: form.vat_exigibility || blank,
    deposit_request_percentage: opt(form.deposit_request_percentage.replace(',', '.')),
    payment_plan_kind: form.payment_plan_kind,
    payment_plan_config,
    delivery_address: hasDelivery
      ? { name: d.name.trim() || null, address: d.address.trim(), postal_code: d.postal_code.trim() || null, city: d.city.trim(), country: d.country.trim() || 'FR' }
      : blank,
    items,
  };
  for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
  return { payload, errors };
}

/** A stored draft as the editor's texts. */
export interface StoredDraft {
  contact_id: string;
  issue_date: string;
  due_date: string | null;
  validity_date: string | null;
  service_date: string | null;
  title: string | null;
  description: string | null;
  notes: string | null;
  payment_terms: string | null;
  payment_method: string | null;
  discount_terms: string | null;
  execution_timeline: string | null;
  operation_nature: DraftForm['operation_nature'] | null;
  vat_exigibility: DraftForm['vat_exigibility'] | null;
  deposit_request_percentage: string | null;
  payment_plan_kind: DraftForm['payment_plan_kind'];
  payment_plan_config: { percentage: string } | { count: number } | null;
  delivery_address: { name: string | null; address: string; postal_code: string | null; city: string; country: string } | null;
  items?: Array<StoredLine & { product_id: string | null }> | null;
}

export function formFromDocument(doc: StoredDraft): DraftForm {
  const config = doc.payment_plan_config;
  return {
    contact_id: doc.contact_id,
    issue_date: doc.issue_date,
    due_date: doc.due_date ?? '',
    validity_date: doc.validity_date ?? '',
    service_date: doc.service_date ?? '',
    title: doc.title ?? '',
    description: doc.description ?? '',
    notes: doc.notes ?? '',
    payment_terms: doc.payment_terms ?? '',
    payment_method: doc.payment_method ?? '',
    discount_terms: doc.discount_terms ?? '',
    execution_timeline: doc.execution_timeline ?? '',
    operation_nature: doc.operation_nature ?? '',
    vat_exigibility: doc.vat_exigibility ?? '',
    deposit_request_percentage: doc.deposit_request_percentage ? formatDecimalAsTyped(doc.deposit_request_percentage) : '',
    payment_plan_kind: doc.payment_plan_kind,
    payment_plan_value: config ? ('percentage' in config ? formatDecimalAsTyped(config.percentage) : String(config.count)) : '',
    delivery: {
      name: doc.delivery_address?.name ?? '',
      address: doc.delivery_address?.address ?? '',
      postal_code: doc.delivery_address?.postal_code ?? '',
      city: doc.delivery_address?.city ?? '',
      country: doc.delivery_address?.country ?? '',
    },
    lines: linesFromItems(doc.items ?? []),
  };
}

/** A stored line: a document's, or a recurring template's (no product). */
export interface StoredLine {
  kind: LineDraft['kind'];
  description: string;
  details: string | null;
  quantity: string;
  unit: string | null;
  unit_price: number;
  vat_rate: string;
  vat_category: VatCategory;
  vat_exemption_reason?: string | null;
  product_id?: string | null;
}

/** Stored lines (a document's or a recurring template's) as the editor's texts. */
export function linesFromItems(items: readonly StoredLine[]): LineDraft[] {
  return items.map((it) => ({
    key: newLineKey(),
    kind: it.kind,
    description: it.description,
    details: it.details ?? '',
    quantity: it.kind === 'discount' ? '' : formatDecimalAsTyped(it.quantity),
    unit: it.unit ?? '',
    unit_price: formatMoneyInput(it.unit_price),
    vat_rate: it.vat_rate,
    // The stored category is shown only when it is not what the rate implies.
    vat_category: it.vat_category === defaultVatCategory(it.vat_rate) ? '' : it.vat_category,
    ...(it.vat_exemption_reason ? { vat_exemption_reason: it.vat_exemption_reason } : {}),
    product_id: it.product_id ?? null,
  }));
}

/** A new draft's texts: today's date and the defaults the server would give (validity, due date, terms). */
export function newForm(type: DocumentType, today: string, settings: ContactTerms & { default_validity_days: number; default_vat_exigibility: DraftForm['vat_exigibility'] | null }): DraftForm {
  const payment_terms = settings.default_payment_terms ?? '';
  return {
    contact_id: '',
    issue_date: today,
    due_date: type === 'facture' ? dueDateFor(today, payment_terms) : '',
    validity_date: type === 'devis' ? validityDateFor(today, settings.default_validity_days) : '',
    service_date: '',
    title: '',
    description: '',
    notes: '',
    payment_terms,
    payment_method: '',
    discount_terms: settings.default_discount_terms ?? '',
    execution_timeline: '',
    operation_nature: '',
    vat_exigibility: settings.default_vat_exigibility ?? '',
    deposit_request_percentage: '',
    payment_plan_kind: 'none',
    payment_plan_value: '',
    delivery: { name: '', address: '', postal_code: '', city: '', country: '' },
    lines: [emptyLine()],
  };
}

// ─── Errors ─────────────────────────────────────────────────────────────────

/** The message for one field, by the API's dotted path (`delivery_address.city`). */
export const errorAt = (errors: Record<string, string> | undefined, field: string): string | undefined => errors?.[field];

/** The errors of line `index`, by its keys (`vat_rate`, `unit_price`…). */
export function lineErrors(errors: Record<string, string> | undefined, index: number): Record<string, string> {
  const prefix = `items.${index}.`;
  return Object.fromEntries(
    Object.entries(errors ?? {})
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, message]) => [key.slice(prefix.length), message]),
  );
}
