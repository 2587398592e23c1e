import { z } from 'zod';
import { CREDIT_REASON_CODES, DOCUMENT_STATUSES, DOCUMENT_TYPES, ITEM_KINDS, OPERATION_NATURES, PAYMENT_PLAN_KINDS, RENDER_STATUSES, TRANSMISSION_STATUSES, VAT_EXIGIBILITIES } from '@/db/schema/billing';
import { VAT_CATEGORIES } from '@/lib/money';
import { IsoDate, nullableString, Timestamp } from '@/lib/openapi/schemas';

/** What the API answers for a document: its lines, its frozen snapshots, its totals, its links (the flow). */
export const DeliveryAddress = z
  .object({ name: z.string().nullable(), address: z.string(), postal_code: z.string().nullable(), city: z.string(), country: z.string() })
  .meta({ id: 'DeliveryAddress' });


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
    vat_exemption_reason: z
      .string()
      .nullable()
      .meta({ description: 'VATEX code (BT-121) of a 0 % line; null for S, Z, and AE, K, G, O with their default reason.' }),
    product_id: z.uuid().nullable(),
    total_ht: z.number().int().meta({ description: 'round_half_up(quantity × unit_price); negative for a discount.' }),
    total_ttc: z.number().int().meta({ description: 'Informative: total_ht plus its VAT rounded per line.' }),
  })
  .meta({ id: 'DocumentItem' });
export type DocumentItem = z.infer<typeof DocumentItem>;

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
    chain_index: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Position in the org's hash chain (1 for the first finalized document); null for a draft. See GET /v1/invoices/chain." }),
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
