import { z } from 'zod';
import {
  CREDIT_REASON_CODES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  ITEM_KINDS,
  OPERATION_NATURES,
  PAYMENT_METHODS,
  PAYMENT_PLAN_KINDS,
  RENDER_STATUSES,
  TRANSMISSION_STATUSES,
  VAT_EXIGIBILITIES,
} from '@/db/schema/billing';
import { PageQuery } from '@/lib/http/pagination';
import { Dec, decimalPlaces, isDecimalString, MAX_AMOUNT_CENTS, normalizeQuantity, normalizeRate, VAT_CATEGORIES } from '@/lib/money';
import { PathId, Timestamp } from '@/lib/openapi/schemas';
import { PaymentReminderOffsets, QuoteExpiryReminderOffsets } from './reminder-offsets';

export {
  CREDIT_REASON_CODES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  ITEM_KINDS,
  OPERATION_NATURES,
  PAYMENT_METHODS,
  PAYMENT_PLAN_KINDS,
  VAT_CATEGORIES,
  VAT_EXIGIBILITIES,
};

export const MAX_ITEMS = 500;
/** 1 billion euros: a unit price beyond is a typo, and totals stay exact integers. */
export const MAX_UNIT_PRICE = 100_000_000_000;
const MAX_QUANTITY = '1000000000';

// ─── Primitives ─────────────────────────────────────────────────────────────

/** Lone UTF-16 surrogates cannot be canonicalized (RFC 8785) nor stored as valid UTF-8. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s) && !s.includes('\u0000');

/** Optional free text: trimmed, blank becomes null. */
export const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `at most ${max} characters` })
    .refine(wellFormed, { error: 'contains an invalid character' })
    .transform((s) => (s === '' ? null : s))
    .nullish();

export const IsoDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' }).meta({ description: 'Calendar date YYYY-MM-DD (Europe/Paris).' });

/** A decimal token: a JSON string ("2.5"), or a plain JSON number converted to its text. */
const decimalToken = (what: string) =>
  z
    .union([z.string({ error: `must be a ${what} string` }), z.number({ error: `must be a ${what} string` })])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    // abort: the checks chained after this one parse the token as a decimal.
    .refine(isDecimalString, { error: `must be a ${what} string such as "2.5"`, abort: true });

/** A percentage string between 0 and 100 with at most `places` decimals. */
export const Percentage = (places: number, { positive = false } = {}) =>
  decimalToken('percentage')
    .refine((s) => decimalPlaces(s) <= places, { error: `at most ${places} decimals`, abort: true })
    .refine((s) => new Dec(s).gte(0) && new Dec(s).lte(100) && (!positive || new Dec(s).gt(0)), {
      error: positive ? 'must be greater than 0 and at most 100' : 'must be between 0 and 100',
    })
    .meta({ type: 'string', description: 'Percentage as a decimal string, e.g. "20" or "5.5".' });

/** A VAT rate, stored and returned with two decimals ("5.50"). */
export const VatRate = Percentage(2)
  .transform(normalizeRate)
  .meta({ type: 'string', description: 'VAT rate, percentage string 0 to 100, at most 2 decimals; returned with two ("20.00").' });

export const Quantity = decimalToken('quantity')
  .refine((s) => decimalPlaces(s) <= 4, { error: 'at most 4 decimals', abort: true })
  .refine((s) => new Dec(s).gt(0) && new Dec(s).lte(MAX_QUANTITY), { error: 'must be greater than 0 (and at most 1e9)' })
  .transform(normalizeQuantity)
  .meta({ type: 'string', description: 'Decimal string, strictly positive, at most 4 decimals.' });

export const Cents = (max = MAX_AMOUNT_CENTS) =>
  z
    .number({ error: 'must be an integer number of cents' })
    .int({ error: 'must be an integer number of cents' })
    .min(0, { error: 'must not be negative' })
    .max(max, { error: `at most ${max} cents` });

const ISO_COUNTRY = /^[A-Z]{2}$/;

export const DeliveryAddressInput = z
  .strictObject({
    name: text(200),
    address: z.string({ error: 'must be a string' }).trim().min(1, { error: 'required' }).max(500).refine(wellFormed),
    postal_code: text(20),
    city: z.string({ error: 'must be a string' }).trim().min(1, { error: 'required' }).max(100).refine(wellFormed),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(ISO_COUNTRY, { error: 'must be an ISO 3166-1 alpha-2 country code' })
      .default('FR'),
  })
  // Every key present in what is stored: the hashed payload must not depend on how the client spelled it.
  .transform((a) => ({ name: a.name ?? null, address: a.address, postal_code: a.postal_code ?? null, city: a.city, country: a.country }))
  .meta({ id: 'DeliveryAddressInput', description: 'Where goods are delivered, when it differs from the buyer address.' });

export const DeliveryAddress = z
  .object({ name: z.string().nullable(), address: z.string(), postal_code: z.string().nullable(), city: z.string(), country: z.string() })
  .meta({ id: 'DeliveryAddress' });

// ─── Items ──────────────────────────────────────────────────────────────────

/** UN/ECE Recommendation 20 code: 2 or 3 upper-case letters or digits (HUR, DAY, C62, KGM…). */
const UnitCode = z
  .string({ error: 'must be a string' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,3}$/, { error: 'must be a UN/ECE Rec 20 unit code such as HUR, DAY or C62' });

export const ItemInput = z
  .strictObject({
    description: z.string({ error: 'must be a string' }).trim().max(1000, { error: 'at most 1000 characters' }).refine(wellFormed, { error: 'contains an invalid character' }).optional(),
    details: text(5000),
    kind: z.enum(ITEM_KINDS, { error: 'must be product or discount' }).optional(),
    position: z.number().int().min(0).max(100_000).optional().meta({ description: 'Defaults to the index in the array.' }),
    quantity: decimalToken('quantity')
      .optional()
      .meta({ type: 'string', description: 'Strictly positive decimal string (at most 4 decimals). A discount reads back as "-1".' }),
    unit: UnitCode.nullish(),
    unit_price: Cents(MAX_UNIT_PRICE).optional().meta({ description: 'Cents excluding VAT; for a discount, the amount taken off.' }),
    vat_rate: VatRate.optional(),
    vat_category: z
      .enum(VAT_CATEGORIES, { error: `must be one of ${VAT_CATEGORIES.join(', ')}` })
      .optional()
      .meta({ description: 'EN 16931 VAT category: S (default above 0 %), or at 0 % Z, E (default), AE, K, G, O.' }),
    product_id: z.uuid({ error: 'must be a product id' }).nullish().meta({ description: 'Fills description, unit, unit_price and vat_rate when omitted.' }),
  })
  .meta({
    id: 'DocumentItemInput',
    description:
      'A line. description, quantity, unit_price and vat_rate are required unless product_id gives them. kind discount (or quantity "-1") ' +
      'takes unit_price off the lines of its VAT rate and category; it cannot exceed their subtotal.',
  });
export type ItemInput = z.output<typeof ItemInput>;

export const Items = z.array(ItemInput, { error: 'must be an array of lines' }).max(MAX_ITEMS, { error: `at most ${MAX_ITEMS} lines` });

export const DocumentItem = z
  .object({
    id: z.uuid(),
    description: z.string(),
    details: z.string().nullable(),
    kind: z.enum(ITEM_KINDS),
    position: z.number().int(),
    quantity: z.string().meta({ description: 'Decimal string; "-1" for a discount.' }),
    unit: z.string().nullable().meta({ description: 'UN/ECE Rec 20 unit code.' }),
    unit_price: z.number().int().meta({ description: 'Cents excluding VAT (positive, also for a discount).' }),
    vat_rate: z.string().meta({ description: 'Percentage with two decimals.' }),
    vat_category: z.enum(VAT_CATEGORIES),
    product_id: z.uuid().nullable(),
    total_ht: z.number().int().meta({ description: 'round_half_up(quantity × unit_price); negative for a discount.' }),
    total_ttc: z.number().int().meta({ description: 'Informative: total_ht plus its VAT rounded per line.' }),
  })
  .meta({ id: 'DocumentItem' });
export type DocumentItem = z.infer<typeof DocumentItem>;

// ─── Documents ──────────────────────────────────────────────────────────────

export const PaymentPlanConfig = z.union([
  z.strictObject({ percentage: Percentage(4, { positive: true }) }),
  z.strictObject({ count: z.number().int().min(2).max(36) }),
]);

/** The fields a client sets on a draft (create and patch). */
const draftFields = {
  contact_id: z.uuid({ error: 'must be a contact id' }),
  issue_date: IsoDate,
  due_date: IsoDate.nullish(),
  service_date: IsoDate.nullish(),
  validity_date: IsoDate.nullish(),
  title: text(300),
  description: text(10_000),
  notes: text(10_000),
  payment_terms: text(1000),
  payment_method: text(300),
  discount_terms: text(1000),
  delivery_address: DeliveryAddressInput.nullish(),
  operation_nature: z.enum(OPERATION_NATURES, { error: 'must be biens, services or mixte' }).nullish(),
  vat_exigibility: z.enum(VAT_EXIGIBILITIES, { error: 'must be debits or encaissements' }).nullish(),
  deposit_request_percentage: Percentage(4, { positive: true }).nullish(),
  execution_timeline: text(1000),
  payment_plan_kind: z.enum(PAYMENT_PLAN_KINDS, { error: 'must be none, deposit_then_balance or installments' }).nullish(),
  payment_plan_config: z.unknown().optional().meta({ description: 'deposit_then_balance: {percentage}; installments: {count}; none: null.' }),
  items: Items.optional(),
};

export const DocumentCreate = z
  .strictObject({
    type: z.enum(['devis', 'facture'], {
      error: 'must be devis or facture (an acompte comes from POST /v1/invoices/{quote}/deposit, an avoir from /credit-note)',
    }),
    ...draftFields,
    issue_date: IsoDate.optional().meta({ description: 'Defaults to today (Europe/Paris).' }),
  })
  .meta({
    id: 'DocumentCreate',
    description:
      'A draft quote or invoice. Omitted: issue_date today; a quote valid for the settings default_validity_days; an invoice due per its ' +
      'payment terms; payment_terms and discount_terms from the contact, else from the settings; vat_exigibility from the settings.',
  });
export type DocumentCreate = z.output<typeof DocumentCreate>;

export const DocumentPatch = z
  .strictObject({
    ...draftFields,
    contact_id: draftFields.contact_id.optional(),
    issue_date: IsoDate.optional(),
  })
  .meta({ id: 'DocumentPatch', description: 'Drafts only. Omitted key: unchanged; null: cleared. items replace the whole set.' });
export type DocumentPatch = z.output<typeof DocumentPatch>;

const nullableString = z.string().nullable();

export const ClientSnapshot = z
  .object({
    contact_id: z.uuid(),
    type: z.string(),
    name: nullableString,
    first_name: nullableString,
    last_name: nullableString,
    company: nullableString,
    email: nullableString,
    phone: nullableString,
    address: nullableString,
    postal_code: nullableString,
    city: nullableString,
    country: z.string(),
    siret: nullableString,
    siren: nullableString,
    vat_intra: nullableString,
  })
  .meta({ id: 'ClientSnapshot', description: 'The buyer as invoiced, frozen at finalization.' });

export const SellerSnapshot = z
  .object({
    name: z.string(),
    legal_name: nullableString,
    legal_form: nullableString,
    share_capital_cents: z.number().int().nullable(),
    siren: nullableString,
    siret: nullableString,
    vat_number: nullableString,
    rcs: nullableString,
    address: nullableString,
    postal_code: nullableString,
    city: nullableString,
    country: z.string(),
    email: nullableString,
    phone: nullableString,
    iban: nullableString,
    bic: nullableString,
    penalty_rate: nullableString,
    recovery_fee: z.number().int(),
    footer_mentions: nullableString,
  })
  .meta({ id: 'SellerSnapshot', description: 'The seller identity and payment mentions as printed, frozen at finalization.' });

export const BillingDocument = z
  .object({
    id: z.uuid(),
    type: z.enum(DOCUMENT_TYPES),
    status: z.enum(DOCUMENT_STATUSES),
    contact_id: z.uuid(),
    contact_name: nullableString.meta({
      description: 'Frozen client snapshot once finalized, live contact for a draft; null when the contact no longer exists.',
    }),
    client_snapshot: ClientSnapshot.nullable(),
    seller_snapshot: SellerSnapshot.nullable(),
    number: nullableString.meta({ description: '{prefix}-{YYYY}-{00001}, set at finalization.' }),
    issue_date: IsoDate,
    due_date: IsoDate.nullable(),
    service_date: IsoDate.nullable(),
    validity_date: IsoDate.nullable(),
    title: nullableString,
    description: nullableString,
    notes: nullableString,
    items: z.array(DocumentItem).nullable().optional().meta({ description: 'Omitted on lists.' }),
    total_ht: z.number().int(),
    total_tva: z.number().int(),
    total_ttc: z.number().int(),
    finalized_at: Timestamp.nullable(),
    content_hash: nullableString.meta({ description: 'Lowercase hex SHA-256 of the hash chain (docs/hash-chain.md).' }),
    prev_hash: nullableString,
    converted_from_id: z.uuid().nullable(),
    parent_devis_id: z.uuid().nullable(),
    avoir_for_id: z.uuid().nullable(),
    acompte_percentage: nullableString,
    deposit_request_percentage: nullableString,
    credit_reason_code: z.enum(CREDIT_REASON_CODES).nullable(),
    credit_reason_text: nullableString,
    delivery_address: DeliveryAddress.nullable(),
    discount_terms: nullableString,
    payment_terms: nullableString,
    payment_method: nullableString,
    execution_timeline: nullableString,
    operation_nature: z.enum(OPERATION_NATURES).nullable(),
    vat_exigibility: z.enum(VAT_EXIGIBILITIES).nullable(),
    payment_plan_kind: z.enum(PAYMENT_PLAN_KINDS),
    payment_plan_config: z.union([z.object({ percentage: z.string() }), z.object({ count: z.number().int() })]).nullable(),
    render_status: z.enum(RENDER_STATUSES),
    transmission_status: z.enum(TRANSMISSION_STATUSES),
    transmission_id: nullableString,
    lifecycle_status: nullableString,
    lifecycle_reason: nullableString,
    lifecycle_at: Timestamp.nullable(),
    sent_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'BillingDocument' });
export type BillingDocument = z.infer<typeof BillingDocument>;

const stringbool = (description: string) =>
  z.stringbool({ error: 'must be true or false' }).optional().meta({ description, type: 'boolean' });

export const DocumentListQuery = PageQuery.extend({
  type: z.enum(DOCUMENT_TYPES).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  contact_id: z.uuid({ error: 'must be a contact id' }).optional(),
  q: z
    .string()
    .trim()
    .min(1, { error: 'must not be blank' })
    .max(200, { error: 'at most 200 characters' })
    .optional()
    .meta({ description: 'Case-insensitive substring of the number, the title or the client name.' }),
  issue_date_from: IsoDate.optional().meta({ description: 'Issued on or after this day.' }),
  issue_date_to: IsoDate.optional().meta({ description: 'Issued on or before this day.' }),
  overdue: stringbool('true: unpaid finalized or sent invoices and deposits whose due date has passed.'),
}).superRefine((q, ctx) => {
  if (q.issue_date_from && q.issue_date_to && q.issue_date_from > q.issue_date_to) {
    ctx.addIssue({ code: 'custom', path: ['issue_date_to'], message: 'must not be before issue_date_from' });
  }
});
export type DocumentListQuery = z.output<typeof DocumentListQuery>;

export const ConvertQuery = z.object({
  dry_run: stringbool('true: answer the invoice the conversion would create, and create nothing.'),
});

export const DepositBody = z
  .strictObject({
    percentage: Percentage(4, { positive: true })
      .optional()
      .meta({ description: "Share of the quote, per VAT rate. Defaults to the quote's deposit_request_percentage." }),
  })
  .meta({ id: 'DepositRequest' });

export const CreditNoteBody = z
  .strictObject({
    credit_reason_code: z.enum(CREDIT_REASON_CODES, { error: `must be one of ${CREDIT_REASON_CODES.join(', ')}` }),
    credit_reason_text: text(1000),
    items: Items.min(1, { error: 'give at least one line, or omit items for a full credit note' }).optional(),
  })
  .meta({ id: 'CreditNoteRequest', description: 'No items: a full credit note (every line of the invoice). Items: a partial one.' });
export type CreditNoteBody = z.output<typeof CreditNoteBody>;

// ─── Payments ───────────────────────────────────────────────────────────────

export const PaymentInput = z
  .strictObject({
    amount: Cents()
      .min(1, { error: 'must be at least 1 cent' })
      .meta({ description: 'Cents received. More than the balance is allowed: remaining_due becomes negative.' }),
    paid_at: IsoDate.optional().meta({ description: 'Day the money was received; defaults to today. Not in the future.' }),
    method: z
      .enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` })
      .default('bank_transfer'),
    reference: text(200).meta({ description: 'Bank reference, cheque number…' }),
  })
  .meta({ id: 'PaymentInput' });
export type PaymentInput = z.output<typeof PaymentInput>;

export const Payment = z
  .object({
    id: z.uuid(),
    document_id: z.uuid(),
    amount: z.number().int(),
    paid_at: IsoDate,
    method: z.enum(PAYMENT_METHODS),
    reference: nullableString,
    created_at: Timestamp,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const PaymentBalance = z
  .object({
    payment: Payment.nullable().meta({ description: 'The recorded payment; null after a deletion.' }),
    total_paid: z.number().int(),
    remaining_due: z.number().int().meta({ description: 'total_ttc − total_paid; negative on overpayment.' }),
    status: z.enum(DOCUMENT_STATUSES),
  })
  .meta({ id: 'PaymentBalance' });

export const PaymentParams = z.object({ id: PathId, payment_id: PathId });

// ─── Settings ───────────────────────────────────────────────────────────────

const Prefix = (fallback: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9+_/-]{0,19}$/, {
      error: 'must be 1 to 20 characters among A-Z a-z 0-9 + - _ / (the number must stay within 35 such characters)',
    })
    .default(fallback);

const readOnly = z.unknown().optional().meta({ description: 'Read-only (from the GET representation): ignored.' });

/**
 * PUT semantics: an omitted field takes its default (prefixes, non-nullable fields) or is reset to null. The
 * settings as GET answers them can be sent back: org_id, created_at and updated_at are ignored.
 */
export const InvoiceSettingsInput = z
  .strictObject({
    devis_prefix: Prefix('DEV'),
    facture_prefix: Prefix('FAC'),
    acompte_prefix: Prefix('AC'),
    avoir_prefix: Prefix('AV'),
    default_validity_days: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1).max(3650).default(30),
    default_vat_exigibility: z.enum(VAT_EXIGIBILITIES, { error: 'must be debits or encaissements' }).nullable().default('debits'),
    default_payment_terms: text(1000).transform((v) => v ?? null),
    default_discount_terms: text(1000).transform((v) => v ?? null),
    footer_mentions: text(5000).transform((v) => v ?? null),
    iban: z
      .string({ error: 'must be a string' })
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .refine((s) => s === '' || /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s), { error: 'must be an IBAN' })
      .transform((s) => s || null)
      .nullish()
      .transform((v) => v ?? null),
    bic: z
      .string({ error: 'must be a string' })
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .refine((s) => s === '' || /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s), { error: 'must be a BIC (8 or 11 characters)' })
      .transform((s) => s || null)
      .nullish()
      .transform((v) => v ?? null),
    penalty_rate: Percentage(4).nullish().transform((v) => v ?? null),
    recovery_fee: Cents().default(4000),
    auto_convert_signed_quotes: z.boolean({ error: 'must be a boolean' }).default(false),
    auto_finalize_signed_invoices: z.boolean({ error: 'must be a boolean' }).default(false),
    auto_send_signed_invoices: z.boolean({ error: 'must be a boolean' }).default(false),
    einvoicing_enabled: z.boolean({ error: 'must be a boolean' }).default(false),
    ereporting_prefs: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullish().transform((v) => v ?? null),
    pdp_config: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullish().transform((v) => v ?? null),
    payment_reminder_offsets: PaymentReminderOffsets,
    quote_expiry_reminder_offsets: QuoteExpiryReminderOffsets,
    // The read-only keys of the GET representation, so that it can be sent back as is: ignored.
    org_id: readOnly,
    created_at: readOnly,
    updated_at: readOnly,
  })
  .superRefine((s, ctx) => {
    // Numbers of different types must never collide: each series has its own prefix.
    const seen = new Map<string, string>();
    for (const key of ['devis_prefix', 'facture_prefix', 'acompte_prefix', 'avoir_prefix'] as const) {
      const other = seen.get(s[key].toUpperCase());
      if (other) ctx.addIssue({ code: 'custom', path: [key], message: `must differ from ${other}` });
      seen.set(s[key].toUpperCase(), key);
    }
  })
  .transform(({ org_id: _org, created_at: _created, updated_at: _updated, ...s }) => {
    // The cascade: sending implies finalizing, which implies converting.
    const auto_finalize_signed_invoices = s.auto_finalize_signed_invoices || s.auto_send_signed_invoices;
    return {
      ...s,
      auto_finalize_signed_invoices,
      auto_convert_signed_quotes: s.auto_convert_signed_quotes || auto_finalize_signed_invoices,
    };
  })
  .meta({
    id: 'InvoiceSettingsInput',
    description:
      'Every field optional (no body at all: every default). Omitted: prefixes and non-nullable fields take their defaults, the others are reset to null. ' +
      'org_id, created_at and updated_at (read-only) are ignored, so the GET representation can be sent back. ' +
      'auto_send_signed_invoices implies auto_finalize_signed_invoices, which implies auto_convert_signed_quotes (normalized). ' +
      'The reminder ladders default to [-3, 1, 7, 15, 30] (payment) and [-7, -2] (quote expiry).',
  });
export type InvoiceSettingsInput = z.output<typeof InvoiceSettingsInput>;

export const InvoiceSettings = z
  .object({
    org_id: z.uuid(),
    devis_prefix: z.string(),
    facture_prefix: z.string(),
    acompte_prefix: z.string(),
    avoir_prefix: z.string(),
    default_validity_days: z.number().int(),
    default_vat_exigibility: z.enum(VAT_EXIGIBILITIES).nullable(),
    default_payment_terms: nullableString,
    default_discount_terms: nullableString,
    footer_mentions: nullableString,
    iban: nullableString,
    bic: nullableString,
    penalty_rate: nullableString,
    recovery_fee: z.number().int(),
    auto_convert_signed_quotes: z.boolean(),
    auto_finalize_signed_invoices: z.boolean(),
    auto_send_signed_invoices: z.boolean(),
    einvoicing_enabled: z.boolean(),
    ereporting_prefs: z.record(z.string(), z.unknown()).nullable(),
    pdp_config: z.record(z.string(), z.unknown()).nullable(),
    payment_reminder_offsets: z.array(z.number().int()).meta({ description: 'Payment-reminder ladder: days relative to the due date.' }),
    quote_expiry_reminder_offsets: z.array(z.number().int()).meta({ description: 'Quote-expiry ladder: days relative to the validity date.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'InvoiceSettings' });
export type InvoiceSettings = z.infer<typeof InvoiceSettings>;

// ─── Products ───────────────────────────────────────────────────────────────

const productFields = {
  name: z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be blank' }).max(300).refine(wellFormed, { error: 'contains an invalid character' }),
  description: text(5000),
  unit: text(50).meta({ description: 'Unit label (hour, day, piece…).' }),
  unit_price_cents: Cents(MAX_UNIT_PRICE),
  vat_rate: VatRate,
};

export const ProductCreate = z
  .strictObject({ ...productFields, vat_rate: productFields.vat_rate.default('20.00') })
  .meta({ id: 'ProductCreate', description: 'vat_rate defaults to 20.00 (the French standard rate).' });
export type ProductCreate = z.output<typeof ProductCreate>;

export const ProductPatch = z
  .strictObject({
    name: productFields.name.optional(),
    description: productFields.description,
    unit: productFields.unit,
    unit_price_cents: productFields.unit_price_cents.optional(),
    vat_rate: productFields.vat_rate.optional(),
  })
  .meta({ id: 'ProductPatch', description: 'Omitted key: unchanged. null clears description or unit; the other keys cannot be null.' });
export type ProductPatch = z.output<typeof ProductPatch>;

export const Product = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: nullableString,
    unit: nullableString,
    unit_price_cents: z.number().int(),
    vat_rate: z.string().meta({ description: 'Two decimals.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

export const ProductListQuery = PageQuery.extend({
  q: z.string().trim().min(1, { error: 'must not be blank' }).max(200).optional().meta({ description: 'Case-insensitive substring of the name.' }),
});
export type ProductListQuery = z.output<typeof ProductListQuery>;

// ─── Flow ───────────────────────────────────────────────────────────────────

export const DocumentFlow = z
  .object({
    document_id: z.uuid(),
    root_id: z.uuid().meta({ description: 'The quote the family comes from, else the invoice itself.' }),
    documents: z.array(
      z.object({
        id: z.uuid(),
        type: z.enum(DOCUMENT_TYPES),
        role: z.enum(['quote', 'deposit', 'invoice', 'credit_note']),
        status: z.enum(DOCUMENT_STATUSES),
        number: nullableString,
        issue_date: IsoDate,
        total_ht: z.number().int(),
        total_ttc: z.number().int(),
        total_paid: z.number().int(),
        finalized_at: Timestamp.nullable(),
        converted_from_id: z.uuid().nullable(),
        parent_devis_id: z.uuid().nullable(),
        avoir_for_id: z.uuid().nullable(),
      }),
    ),
    history: z.array(
      z.object({
        at: Timestamp,
        event: z
          .string()
          .meta({ description: 'created, finalized, sent, payment, or the closing status: accepted, rejected, expired, cancelled, paid.' }),
        document_id: z.uuid(),
        document_type: z.enum(DOCUMENT_TYPES),
        number: nullableString,
        amount: z.number().int().nullable().meta({ description: 'Cents, for a payment.' }),
        payment_id: z.uuid().nullable(),
        paid_at: IsoDate.optional().meta({ description: 'For a payment: the day the money was received.' }),
      }),
    ),
  })
  .meta({ id: 'DocumentFlow', description: 'The family quote → deposits → invoice → credit notes, and its history oldest first.' });
export type DocumentFlow = z.infer<typeof DocumentFlow>;

// ─── Stats ──────────────────────────────────────────────────────────────────

const amounts = z.object({ count: z.number().int(), total_ht: z.number().int(), total_tva: z.number().int(), total_ttc: z.number().int() });
const balance = z.object({ count: z.number().int(), amount: z.number().int().meta({ description: 'Cents TTC still due.' }) });

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
    from: IsoDate,
    to: IsoDate,
    as_of: IsoDate.meta({ description: 'Today (Europe/Paris): the day outstanding and overdue are measured.' }),
    invoiced: amounts.meta({ description: 'Finalized invoices and deposit invoices issued in the range (cancelled ones included: their credit note counts below).' }),
    credited: amounts.meta({ description: 'Finalized credit notes issued in the range.' }),
    net: z.object({ total_ht: z.number().int(), total_tva: z.number().int(), total_ttc: z.number().int() }).meta({ description: 'invoiced − credited.' }),
    collected: z.object({ count: z.number().int(), amount: z.number().int() }).meta({ description: 'Payments received (paid_at) in the range.' }),
    outstanding: balance.meta({
      description: 'Today, whatever the range: finalized or sent invoices and deposits with total_ttc − payments − their credit note > 0.',
    }),
    overdue: balance.meta({ description: 'The outstanding ones whose due date has passed.' }),
    drafts: z.object({ count: z.number().int() }),
    quotes: z
      .object({
        open: z.object({ count: z.number().int(), total_ht: z.number().int() }),
        accepted: z.object({ count: z.number().int(), total_ht: z.number().int() }),
        rejected: z.object({ count: z.number().int() }),
        expired: z.object({ count: z.number().int() }),
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
  net_tva: z.number().int(),
  net_ttc: z.number().int(),
};

export const Revenue = z
  .object({
    from: IsoDate,
    to: IsoDate,
    months: z.array(
      z.object({
        month: z.string().meta({ description: 'YYYY-MM (issue date, Europe/Paris).' }),
        ...revenueFigures,
        invoice_count: z.number().int(),
        credit_note_count: z.number().int(),
      }),
    ),
    total: z.object(revenueFigures),
  })
  .meta({ id: 'Revenue', description: 'Revenue per month of issue date, every month of the range present, credit notes netted.' });
export type Revenue = z.infer<typeof Revenue>;

export const RevenueByClientQuery = RevenueQuery.safeExtend({
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export type RevenueByClientQuery = z.output<typeof RevenueByClientQuery>;

export const RevenueByClient = z
  .object({
    from: IsoDate,
    to: IsoDate,
    data: z.array(
      z.object({
        contact_id: z.uuid(),
        contact_name: nullableString.meta({ description: 'As invoiced (the latest finalized document’s client snapshot).' }),
        ...revenueFigures,
        document_count: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'RevenueByClient', description: 'Net revenue per client over the range, largest first.' });
export type RevenueByClient = z.infer<typeof RevenueByClient>;

export const ClientSummaryQuery = z.object({ contact_id: z.uuid({ error: 'must be a contact id' }) });

export const ClientSummary = z
  .object({
    contact_id: z.uuid(),
    contact_name: nullableString.meta({ description: 'The live contact, or null when it no longer exists.' }),
    as_of: IsoDate,
    drafts: z.object({ count: z.number().int() }),
    quotes: z.object({
      count: z.number().int().meta({ description: 'Finalized quotes.' }),
      open: z.number().int(),
      accepted: z.number().int(),
      accepted_ht: z.number().int(),
    }),
    invoiced: amounts,
    credited: amounts,
    paid: z.object({ count: z.number().int(), amount: z.number().int() }),
    outstanding: balance,
    overdue: balance,
    first_issue_date: IsoDate.nullable(),
    last_issue_date: IsoDate.nullable(),
  })
  .meta({ id: 'ClientSummary', description: 'Everything billed to one client, all time.' });
export type ClientSummary = z.infer<typeof ClientSummary>;
