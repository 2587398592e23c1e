import { z } from 'zod';
import { CREDIT_REASON_CODES, DOCUMENT_STATUSES, DOCUMENT_TYPES, ITEM_KINDS, OPERATION_NATURES, PAYMENT_PLAN_KINDS, RENDER_STATUSES, TRANSMISSION_STATUSES, VAT_EXIGIBILITIES } from '@/db/schema/billing';
import { decimalString, nullableDecimalString, VAT_CATEGORIES } from '@/lib/platform/money';
import { IsoDate, nullableString, Timestamp } from '@/lib/platform/contract';

/** What the API answers for a document: its lines, its frozen snapshots, its totals, its links (the flow). */
export const DeliveryAddress = z
  .object({
    name: z.string().nullable().meta({ description: 'Who receives the delivery; null: the buyer.' }),
    address: z.string().meta({ description: 'Street address, lines separated by newlines.' }),
    postal_code: z.string().nullable().meta({ description: 'Postal code; null when the place has none.' }),
    city: z.string().meta({ description: 'City.' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
  })
  .meta({ id: 'DeliveryAddress', description: 'Where goods are delivered or the service performed when it is not the buyer’s address (BG-15).' });


export const DocumentItem = z
  .object({
    id: z.uuid().meta({ description: 'The line’s id.' }),
    description: z.string().meta({ description: 'What is sold, as printed.' }),
    details: z.string().nullable().meta({ description: 'More text printed under the description; null when none.' }),
    kind: z.enum(ITEM_KINDS).meta({ description: 'product (a billed line) or discount (netted off the lines of its VAT rate and category).' }),
    position: z.number().int().meta({ description: 'Order on the document, from 0.' }),
    quantity: decimalString('quantity', 'Decimal string, at most 4 decimals, without trailing zeros; "-1" for a discount.'),
    unit: z.string().nullable().meta({ description: 'UN/ECE Rec 20 unit code.' }),
    unit_price: z.number().int().meta({ description: 'Cents excluding VAT (positive, also for a discount).' }),
    vat_rate: decimalString('rate', 'VAT rate in percent, a decimal string with two decimals ("20.00", "5.50").'),
    vat_category: z.enum(VAT_CATEGORIES).meta({ description: 'EN 16931 VAT category (BT-151): S standard, Z zero-rated, E exempt, AE reverse charge, K intra-EU, G export, O outside scope.' }),
    vat_exemption_reason: z
      .string()
      .nullable()
      .meta({ description: 'VATEX code (BT-121) of a 0 % line; null for S, Z, and AE, K, G, O with their default reason.' }),
    product_id: z.uuid().nullable().meta({ description: 'The catalogue product the line started from; null when typed in.' }),
    total_ht: z.number().int().meta({ description: 'round_half_up(quantity × unit_price); negative for a discount.' }),
    total_ttc: z.number().int().meta({ description: 'Informative: total_ht plus its VAT rounded per line.' }),
  })
  .meta({ id: 'DocumentItem', description: 'A line of a document.' });
export type DocumentItem = z.infer<typeof DocumentItem>;

export const ClientSnapshot = z
  .object({
    contact_id: z.uuid().meta({ description: 'The contact invoiced.' }),
    type: z.string().meta({ description: 'particulier or professionnel.' }),
    name: nullableString.meta({ description: 'Company, else first and last name: the name printed.' }),
    first_name: nullableString.meta({ description: 'First name; null when none.' }),
    last_name: nullableString.meta({ description: 'Last name; null when none.' }),
    company: nullableString.meta({ description: 'Legal name of a business; null for a person.' }),
    email: nullableString.meta({ description: 'E-mail address; null when unknown.' }),
    phone: nullableString.meta({ description: 'Phone; null when unknown.' }),
    address: nullableString.meta({ description: 'Street address; null when unknown.' }),
    postal_code: nullableString.meta({ description: 'Postal code; null when unknown.' }),
    city: nullableString.meta({ description: 'City; null when unknown.' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    siret: nullableString.meta({ description: 'SIRET, 14 digits; null when unknown.' }),
    siren: nullableString.meta({ description: 'SIREN, 9 digits (BT-47); null when unknown.' }),
    vat_intra: nullableString.meta({ description: 'Intra-EU VAT number (BT-48); null when unknown.' }),
  })
  .meta({ id: 'ClientSnapshot', description: 'The buyer as invoiced, frozen at finalization.' });

export const SellerSnapshot = z
  .object({
    name: z.string().meta({ description: 'Trade name printed as the seller.' }),
    legal_name: nullableString.meta({ description: 'Registered legal name; null when it is the name.' }),
    legal_form: nullableString.meta({ description: 'Legal form (SAS, SARL, EI…); null when not set.' }),
    share_capital_cents: z.number().int().nullable().meta({ description: 'Share capital in cents, printed for a company; null when not set.' }),
    siren: nullableString.meta({ description: 'SIREN, 9 digits; null when not set.' }),
    siret: nullableString.meta({ description: 'SIRET of the establishment, 14 digits; null when not set.' }),
    vat_number: nullableString.meta({ description: 'Intra-EU VAT number; null when not liable.' }),
    rcs: nullableString.meta({ description: 'Trade register mention (RCS Paris 732 829 320); null when not set.' }),
    address: nullableString.meta({ description: 'Street address; null when not set.' }),
    postal_code: nullableString.meta({ description: 'Postal code; null when not set.' }),
    city: nullableString.meta({ description: 'City; null when not set.' }),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    email: nullableString.meta({ description: 'Contact e-mail printed; null when not set.' }),
    phone: nullableString.meta({ description: 'Phone printed; null when not set.' }),
    iban: nullableString.meta({ description: 'IBAN printed for transfers; null when not set.' }),
    bic: nullableString.meta({ description: 'BIC printed with the IBAN; null when not set.' }),
    penalty_rate: nullableDecimalString('percentage', 'Late-penalty rate in percent (decimal string); null: the legal default, ECB rate + 10 points.'),
    recovery_fee: z.number().int().meta({ description: 'Fixed recovery indemnity in cents (at least 4000, C. com. D441-5).' }),
    footer_mentions: nullableString.meta({ description: 'Extra mentions printed in the footer; null when none.' }),
  })
  .meta({ id: 'SellerSnapshot', description: 'The seller identity and payment mentions as printed, frozen at finalization.' });

export const BillingDocument = z
  .object({
    id: z.uuid().meta({ description: 'The document’s id.' }),
    type: z.enum(DOCUMENT_TYPES).meta({ description: 'devis (quote), facture (invoice), acompte (deposit invoice) or avoir (credit note).' }),
    status: z.enum(DOCUMENT_STATUSES).meta({ description: 'draft, finalized, sent, paid; for a quote accepted, rejected or expired; cancelled.' }),
    contact_id: z.uuid().meta({ description: 'The client’s contact.' }),
    contact_name: nullableString.meta({
      description: 'Frozen client snapshot once finalized, live contact for a draft; null when the contact no longer exists.',
    }),
    client_snapshot: ClientSnapshot.nullable().meta({ description: 'The buyer as invoiced, frozen at finalization; null for a draft.' }),
    seller_snapshot: SellerSnapshot.nullable().meta({ description: 'The seller as printed, frozen at finalization; null for a draft.' }),
    number: nullableString.meta({ description: '{prefix}-{YYYY}-{00001}, set at finalization.' }),
    issue_date: IsoDate.meta({ description: 'Issue date (Europe/Paris calendar day); finalization moves a past one to that day.' }),
    due_date: IsoDate.nullable().meta({ description: 'Payment due date; null when none (a quote).' }),
    service_date: IsoDate.nullable().meta({ description: 'Date of delivery or service (BT-72); null when not given.' }),
    validity_date: IsoDate.nullable().meta({ description: 'Quote: last day the offer holds; null otherwise.' }),
    title: nullableString.meta({ description: 'Title printed above the lines; null when none.' }),
    description: nullableString.meta({ description: 'Text printed above the lines; null when none.' }),
    notes: nullableString.meta({ description: 'Text printed below the totals; null when none.' }),
    items: z.array(DocumentItem).nullable().optional().meta({ description: 'Omitted on lists.' }),
    total_ht: z.number().int().meta({ description: 'Total excluding VAT, in cents: the sum of the VAT groups’ bases.' }),
    total_tva: z.number().int().meta({ description: 'Total VAT in cents, rounded once per VAT group.' }),
    total_ttc: z.number().int().meta({ description: 'Total including VAT in cents (total_ht + total_tva).' }),
    finalized_at: Timestamp.nullable().meta({ description: 'When it was finalized; non-null means immutable.' }),
    content_hash: nullableString.meta({ description: 'Lowercase hex SHA-256 of the hash chain (docs/hash-chain.md).' }),
    prev_hash: nullableString.meta({ description: 'Lowercase hex content_hash of the org’s previous finalized document; null for the first and for a draft.' }),
    chain_index: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Position in the org's hash chain (1 for the first finalized document); null for a draft. See GET /v1/invoices/chain." }),
    converted_from_id: z.uuid().nullable().meta({ description: 'The quote this invoice was converted from; null otherwise.' }),
    parent_devis_id: z.uuid().nullable().meta({ description: 'Deposit invoice: its quote; null otherwise.' }),
    avoir_for_id: z.uuid().nullable().meta({ description: 'Credit note: the invoice it offsets; null otherwise.' }),
    acompte_percentage: nullableDecimalString('percentage', 'Deposit invoice: its share of the parent quote, in percent (decimal string). Null otherwise.'),
    deposit_request_percentage: nullableDecimalString('percentage', 'Quote: the deposit asked at order, in percent (decimal string), printed as a mention. Null when none.'),
    credit_reason_code: z.enum(CREDIT_REASON_CODES).nullable().meta({ description: 'Credit note: why, one of cancellation, billing_error, return, commercial_gesture, other; null otherwise.' }),
    credit_reason_text: nullableString.meta({ description: 'Credit note: the reason in words; null when none.' }),
    delivery_address: DeliveryAddress.nullable().meta({ description: 'Delivery place when not the buyer’s address; null otherwise.' }),
    discount_terms: nullableString.meta({ description: 'Early-payment discount mention; null when none.' }),
    payment_terms: nullableString.meta({ description: 'Payment terms printed; null when none.' }),
    payment_method: nullableString.meta({ description: 'Payment means printed (transfer, card…); null when none.' }),
    execution_timeline: nullableString.meta({ description: 'Quote: when the work will be done; null when none.' }),
    operation_nature: z.enum(OPERATION_NATURES).nullable().meta({ description: 'biens, services or mixte: the nature printed (required on B2B invoices); null when not set.' }),
    vat_exigibility: z.enum(VAT_EXIGIBILITIES).nullable().meta({ description: 'debits or encaissements: when VAT is due (option pour les débits); null: the default for the nature.' }),
    payment_plan_kind: z.enum(PAYMENT_PLAN_KINDS).meta({ description: 'none, deposit_then_balance or installments: what is invoiced automatically once the quote is signed.' }),
    payment_plan_config: z
      .union([
        z.object({ percentage: decimalString('percentage', 'deposit_then_balance: the deposit share, in percent (decimal string).') }),
        z.object({ count: z.number().int().meta({ description: 'installments: how many invoices, 2 to 36.' }) }),
      ])
      .nullable()
      .meta({ description: 'The plan’s setting: {percentage} for deposit_then_balance, {count} for installments; null for none.' }),
    render_status: z.enum(RENDER_STATUSES).meta({ description: 'The PDF: pending, rendering, ready (downloadable at GET /v1/invoices/{id}/pdf) or failed.' }),
    transmission_status: z.enum(TRANSMISSION_STATUSES).meta({ description: 'E-invoicing toward the buyer’s PA: not_required, pending, sending, sent or failed.' }),
    transmission_id: nullableString.meta({ description: 'The PA’s id for the transmission; null until transmitted.' }),
    lifecycle_status: nullableString.meta({ description: 'Last regulatory lifecycle status the PA reported (deposee, rejetee, encaissee…); null until one.' }),
    lifecycle_reason: nullableString.meta({ description: 'Reason given with a negative lifecycle status; null otherwise.' }),
    lifecycle_at: Timestamp.nullable().meta({ description: 'When the last lifecycle status was reported; null until one.' }),
    sent_at: Timestamp.nullable().meta({ description: 'When it was first sent (status sent); null before.' }),
    created_at: Timestamp.meta({ description: 'When it was created.' }),
    updated_at: Timestamp.meta({ description: 'When it last changed.' }),
  })
  .meta({ id: 'BillingDocument', description: 'A quote (devis), invoice (facture), deposit invoice (acompte) or credit note (avoir). Amounts are integer cents.' });
export type BillingDocument = z.infer<typeof BillingDocument>;

// ─── Flow ───────────────────────────────────────────────────────────────────

export const DocumentFlow = z
  .object({
    document_id: z.uuid().meta({ description: 'The document asked about.' }),
    root_id: z.uuid().meta({ description: 'The quote the family comes from, else the invoice itself.' }),
    documents: z.array(
      z.object({
        id: z.uuid().meta({ description: 'The document’s id.' }),
        type: z.enum(DOCUMENT_TYPES).meta({ description: 'devis, facture, acompte or avoir.' }),
        role: z.enum(['quote', 'deposit', 'invoice', 'credit_note']).meta({ description: 'Its place in the family: quote, deposit, invoice or credit_note.' }),
        status: z.enum(DOCUMENT_STATUSES).meta({ description: 'Its status.' }),
        number: nullableString.meta({ description: 'Its number; null for a draft.' }),
        issue_date: IsoDate.meta({ description: 'Issue date (Europe/Paris calendar day).' }),
        total_ht: z.number().int().meta({ description: 'Total excluding VAT, cents.' }),
        total_ttc: z.number().int().meta({ description: 'Total including VAT, cents.' }),
        total_paid: z.number().int().meta({ description: 'Payments received, cents (refunds deducted).' }),
        finalized_at: Timestamp.nullable().meta({ description: 'When it was finalized; null for a draft.' }),
        converted_from_id: z.uuid().nullable().meta({ description: 'The quote it was converted from; null otherwise.' }),
        parent_devis_id: z.uuid().nullable().meta({ description: 'Deposit: its quote; null otherwise.' }),
        avoir_for_id: z.uuid().nullable().meta({ description: 'Credit note: the invoice it offsets; null otherwise.' }),
      }),
    ).meta({ description: 'Every document of the family.' }),
    history: z.array(
      z.object({
        at: Timestamp.meta({ description: 'When it happened.' }),
        event: z
          .string()
          .meta({ description: 'created, finalized, sent, payment, or the closing status: accepted, rejected, expired, cancelled, paid.' }),
        document_id: z.uuid().meta({ description: 'The document it happened to.' }),
        document_type: z.enum(DOCUMENT_TYPES).meta({ description: 'devis, facture, acompte or avoir.' }),
        number: nullableString.meta({ description: 'That document’s number; null while a draft.' }),
        amount: z.number().int().nullable().meta({ description: 'For a payment: its amount in cents; null otherwise.' }),
        payment_id: z.uuid().nullable().meta({ description: 'For a payment: its id; null otherwise.' }),
        paid_at: IsoDate.optional().meta({ description: 'For a payment: the day the money was received.' }),
      }),
    ).meta({ description: 'What happened to the family, oldest first.' }),
  })
  .meta({ id: 'DocumentFlow', description: 'The family quote → deposits → invoice → credit notes, and its history oldest first.' });
export type DocumentFlow = z.infer<typeof DocumentFlow>;
