import { z } from 'zod';
import {
  CREDIT_REASON_CODES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  ITEM_KINDS,
  OPERATION_NATURES,
  PAYMENT_METHODS,
  PAYMENT_PLAN_KINDS,
  VAT_EXIGIBILITIES,
} from '@/db/schema/billing';
import { PageQuery } from '@/lib/platform/http';
import { Cents, decimalToken, MAX_UNIT_PRICE, Percentage, VAT_CATEGORIES, VAT_EXEMPTION_CODES, VatRate } from '@/lib/platform/money';
import { IsoDate, nullableString, Timestamp, text, wellFormed } from '@/lib/platform/contract';

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

export { BillingDocument, ClientSnapshot, DeliveryAddress, DocumentFlow, DocumentItem, SellerSnapshot } from './document-schema';

const ISO_COUNTRY = /^[A-Z]{2}$/;

export const DeliveryAddressInput = z
  .strictObject({
    name: text(200).meta({ description: 'Who receives the delivery, at most 200 characters; omitted or null: the buyer.' }),
    address: z.string({ error: 'must be a string' }).trim().min(1, { error: 'required' }).max(500).refine(wellFormed).meta({ description: 'Street address, lines separated by newlines, at most 500 characters.' }),
    postal_code: text(20).meta({ description: 'Postal code; omitted or null when the place has none.' }),
    city: z.string({ error: 'must be a string' }).trim().min(1, { error: 'required' }).max(100).refine(wellFormed).meta({ description: 'City, at most 100 characters.' }),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(ISO_COUNTRY, { error: 'must be an ISO 3166-1 alpha-2 country code' })
      .default('FR')
      .meta({ description: 'ISO 3166-1 alpha-2; FR when omitted.' }),
  })
  // Every key present in what is stored: the hashed payload must not depend on how the client spelled it.
  .transform((a) => ({ name: a.name ?? null, address: a.address, postal_code: a.postal_code ?? null, city: a.city, country: a.country }))
  .meta({ id: 'DeliveryAddressInput', description: 'Where goods are delivered, when it differs from the buyer address.' });

// ─── Items ──────────────────────────────────────────────────────────────────

/** UN/ECE Recommendation 20 code: 2 or 3 upper-case letters or digits (HUR, DAY, C62, KGM…). */
const UnitCode = z
  .string({ error: 'must be a string' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,3}$/, { error: 'must be a UN/ECE Rec 20 unit code such as HUR, DAY or C62' });

export const ItemInput = z
  .strictObject({
    description: z
      .string({ error: 'must be a string' })
      .trim()
      .max(1000, { error: 'at most 1000 characters' })
      .refine(wellFormed, { error: 'contains an invalid character' })
      .optional()
      .meta({ description: 'What is sold, as printed; at most 1000 characters.' }),
    details: text(5000).meta({ description: 'More text printed under the description, at most 5000 characters.' }),
    kind: z.enum(ITEM_KINDS, { error: 'must be product or discount' }).optional().meta({ description: 'product (default) or discount.' }),
    position: z.number().int().min(0).max(100_000).optional().meta({ description: 'Defaults to the index in the array.' }),
    quantity: decimalToken('quantity')
      .optional()
      .meta({ description: 'Decimal string, strictly positive, at most 4 decimals ("2.5"; a JSON number is accepted too). Omit it for a discount, which reads back as "-1".' }),
    unit: UnitCode.nullish().meta({ description: 'UN/ECE Rec 20 unit code (HUR hour, DAY day, C62 piece…); null: none printed.' }),
    unit_price: Cents(MAX_UNIT_PRICE).optional().meta({ description: 'Cents excluding VAT; for a discount, the amount taken off.' }),
    vat_rate: VatRate.optional(),
    vat_category: z
      .enum(VAT_CATEGORIES, { error: `must be one of ${VAT_CATEGORIES.join(', ')}` })
      .optional()
      .meta({ description: 'EN 16931 VAT category: S (default above 0 %), or at 0 % Z, E (default), AE, K, G, O.' }),
    vat_exemption_reason: z
      .enum(VAT_EXEMPTION_CODES, { error: 'must be a VATEX code of the catalogue (docs/billing.md)' })
      .nullish()
      .meta({
        description:
          'At 0 %: the exemption reason (BT-121 VATEX code), e.g. VATEX-FR-FRANCHISE (art. 293 B) or VATEX-FR-CGI261-4. Required for E at finalization; AE, K, G and O default to their own.',
      }),
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

// ─── Documents ──────────────────────────────────────────────────────────────

export const PaymentPlanConfig = z.union([
  z.strictObject({ percentage: Percentage(4, { positive: true }) }),
  z.strictObject({ count: z.number().int().min(2).max(36) }),
]);

/** The fields a client sets on a draft (create and patch). */
const draftFields = {
  contact_id: z.uuid({ error: 'must be a contact id' }).meta({ description: 'The client: a contact of the org.' }),
  issue_date: IsoDate,
  due_date: IsoDate.nullish().meta({ description: 'Payment due date (Europe/Paris calendar day); omitted on an invoice: from its payment terms.' }),
  service_date: IsoDate.nullish().meta({ description: 'Date of delivery or service (BT-72).' }),
  validity_date: IsoDate.nullish().meta({ description: 'Quote: last day the offer holds; omitted: from the settings.' }),
  title: text(300).meta({ description: 'Title printed above the lines, at most 300 characters.' }),
  description: text(10_000).meta({ description: 'Text printed above the lines, at most 10000 characters.' }),
  notes: text(10_000).meta({ description: 'Text printed below the totals, at most 10000 characters.' }),
  payment_terms: text(1000).meta({ description: 'Payment terms printed; omitted: the contact’s, else the settings’.' }),
  payment_method: text(300).meta({ description: 'Payment means printed (transfer, card…), at most 300 characters.' }),
  discount_terms: text(1000).meta({ description: 'Early-payment discount mention; omitted: the contact’s, else the settings’.' }),
  delivery_address: DeliveryAddressInput.nullish(),
  operation_nature: z.enum(OPERATION_NATURES, { error: 'must be biens, services or mixte' }).nullish().meta({ description: 'biens, services or mixte: printed, and required on a B2B invoice at finalization.' }),
  vat_exigibility: z.enum(VAT_EXIGIBILITIES, { error: 'must be debits or encaissements' }).nullish().meta({ description: 'debits or encaissements: when VAT is due; omitted: the settings’.' }),
  deposit_request_percentage: Percentage(4, { positive: true }).nullish(),
  execution_timeline: text(1000).meta({ description: 'Quote: when the work will be done, at most 1000 characters.' }),
  payment_plan_kind: z.enum(PAYMENT_PLAN_KINDS, { error: 'must be none, deposit_then_balance or installments' }).nullish().meta({ description: 'none, deposit_then_balance or installments: what is invoiced once the quote is signed.' }),
  payment_plan_config: z.unknown().optional().meta({ description: 'deposit_then_balance: {percentage}; installments: {count}; none: null.' }),
  items: Items.optional().meta({ description: `The lines, at most ${MAX_ITEMS}; on PATCH they replace the whole set.` }),
};

export const DocumentCreate = z
  .strictObject({
    type: z
      .enum(['devis', 'facture'], {
        error: 'must be devis or facture (an acompte comes from POST /v1/invoices/{quote}/deposit, an avoir from /credit-note)',
      })
      .meta({ description: 'devis (a quote) or facture (an invoice).' }),
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
    contact_id: draftFields.contact_id.optional().meta({ description: 'Another client for the draft.' }),
    issue_date: IsoDate.optional(),
  })
  .meta({ id: 'DocumentPatch', description: 'Drafts only. Omitted key: unchanged; null: cleared. items replace the whole set.' });
export type DocumentPatch = z.output<typeof DocumentPatch>;


const stringbool = (description: string) =>
  z.stringbool({ error: 'must be true or false' }).optional().meta({ description, type: 'boolean' });

export const DocumentListQuery = PageQuery.extend({
  type: z.enum(DOCUMENT_TYPES).optional().meta({ description: 'Only documents of this type.' }),
  status: z.enum(DOCUMENT_STATUSES).optional().meta({ description: 'Only documents in this status.' }),
  contact_id: z.uuid({ error: 'must be a contact id' }).optional().meta({ description: 'Only this contact’s documents.' }),
  q: z
    .string()
    .trim()
    .min(1, { error: 'must not be blank' })
    .max(200, { error: 'at most 200 characters' })
    .optional()
    .meta({ description: 'Case-insensitive substring of the number, the title or the client name.' }),
  issue_date_from: IsoDate.optional().meta({ description: 'Issued on or after this day.' }),
  issue_date_to: IsoDate.optional().meta({ description: 'Issued on or before this day.' }),
  outstanding: stringbool('true: finalized or sent invoices and deposits with a balance still due (total − payments − finalized credit note > 0).'),
  overdue: stringbool('true: the outstanding ones (as above) whose due date is before today, Europe/Paris.'),
  awaiting_answer: stringbool('true: quotes finalized or sent, awaiting the client’s answer.'),
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
      .meta({
        description:
          'Share of the quote in percent, applied per VAT rate: a decimal string above 0 to 100 with at most 4 decimals ("30"); a JSON number is accepted too. ' +
          'Defaults to the quote’s deposit_request_percentage.',
      }),
  })
  .meta({ id: 'DepositRequest' });

export const CreditNoteBody = z
  .strictObject({
    credit_reason_code: z
      .enum(CREDIT_REASON_CODES, { error: `must be one of ${CREDIT_REASON_CODES.join(', ')}` })
      .meta({ description: 'Why: cancellation, billing_error, return, commercial_gesture or other.' }),
    credit_reason_text: text(1000).meta({ description: 'The reason in words, printed on the credit note; at most 1000 characters.' }),
    items: Items.min(1, { error: 'give at least one line, or omit items for a full credit note' })
      .optional()
      .meta({ description: 'The lines credited, as positive amounts; omit for a full credit note.' }),
  })
  .meta({ id: 'CreditNoteRequest', description: 'No items: a full credit note (every line of the invoice). Items: a partial one.' });
export type CreditNoteBody = z.output<typeof CreditNoteBody>;

// ─── Hash chain (auditors) ──────────────────────────────────────────────────

export const ChainState = z
  .object({
    length: z.number().int().meta({ description: 'Finalized documents in the chain.' }),
    head: nullableString.meta({ description: 'content_hash of the last document (null for an empty chain).' }),
    head_document_id: z.uuid().nullable().meta({ description: 'The last finalized document; null for an empty chain.' }),
    verified_at: Timestamp.nullable().meta({ description: 'Last time the whole chain was recomputed and found intact (POST /v1/invoices/chain/verify).' }),
  })
  .meta({ id: 'ChainState', description: "The head of the org's hash chain: a document deleted from the end shows as a length or head that no longer matches." });
export type ChainState = z.infer<typeof ChainState>;

export const ChainVerification = z
  .object({
    ok: z.boolean().meta({ description: 'True when every link and number checks out.' }),
    verified: z.number().int().meta({ description: 'Documents whose link was checked before the first break (all of them when ok).' }),
    head_hash: nullableString.meta({ description: 'content_hash of the last document; null for an empty chain.' }),
    first_broken: z
      .object({
        reason: z
          .enum(['unchained', 'index_gap', 'prev_hash_mismatch', 'content_hash_mismatch', 'contact_mismatch', 'head_mismatch'])
          .meta({ description: 'What breaks: a finalized document outside the chain, a missing position, a wrong link or hash, a buyer that differs, a head that does not match.' }),
        chain_index: z.number().int().nullable().meta({ description: 'Position of the document in the chain; null when it has none.' }),
        document_id: z.uuid().nullable().meta({ description: 'The document where it breaks; null for a head mismatch with no document.' }),
        number: nullableString.meta({ description: 'That document’s number; null when none.' }),
        expected: nullableString.meta({ description: 'The value recomputed (a hash, an index); null when not applicable.' }),
        actual: nullableString.meta({ description: 'The value stored; null when missing.' }),
      })
      .nullable()
      .meta({ description: 'The first break in chain order; null when ok.' }),
    skipped_numbers: z
      .array(
        z.object({
          type: z.enum(DOCUMENT_TYPES).meta({ description: 'The series’ document type.' }),
          year: z.number().int().meta({ description: 'The series’ year.' }),
          from: z.number().int().meta({ description: 'First missing sequence number.' }),
          to: z.number().int().meta({ description: 'Last missing sequence number.' }),
        }),
      )
      .meta({ description: 'Numbers of a series (type, year) that no finalized document carries, from–to inclusive: a gap, or a counter moved past the last number issued. Empty when ok.' }),
    verified_at: Timestamp.nullable().meta({ description: 'Set to now when ok; the previous successful verification otherwise.' }),
  })
  .meta({ id: 'ChainVerification', description: 'The report of the verifier of docs/hash-chain.md, recomputing every hash in chain order.' });
export type ChainVerification = z.infer<typeof ChainVerification>;

