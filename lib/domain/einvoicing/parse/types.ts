/** What a received e-invoice says, read from its CII or UBL (lib/domain/einvoicing/parse). Amounts are integer cents. */
export type InboundFormat = 'cii' | 'ubl' | 'facturx';

export interface InboundVatGroup {
  /** UNTDID 5305 (S, Z, E, AE, K, G, O, L, M); null when the document leaves it out. */
  category: string | null;
  /** Percentage with two decimals ("20.00"); null for O (out of scope). */
  rate: string | null;
  base: number;
  vat: number;
}

/**
 * An allowance (remise) or a charge (frais) of a received invoice: at the document level (BG-20, BG-21: it moves the
 * total HT away from the sum of the lines, BT-109 = BT-106 − BT-107 + BT-108) or on a line (BG-27, BG-28: already in
 * that line's net, BT-131 = quantity × net price − allowances + charges).
 */
export interface InboundAllowanceCharge {
  /** A charge (BG-21, BG-28) adds; an allowance (BG-20, BG-27) takes off. */
  charge: boolean;
  /** BT-92, BT-99, BT-136, BT-141: the amount as a magnitude, signed like the totals (a credit note's negated). */
  amount: number;
  /** BT-97, BT-104, BT-139, BT-144, null when absent. */
  reason: string | null;
  /** UNTDID 5189 (allowances) or 7161 (charges), null when absent. */
  reason_code: string | null;
  /** BT-94, BT-101, BT-138, BT-143: the percentage applied to `base`, a decimal string; null when absent. */
  percentage: string | null;
  /** Document level only (BT-95, BT-102, BT-96, BT-103): the VAT group it moves; null on a line. */
  vat_category: string | null;
  vat_rate: string | null;
}

export interface InboundLine {
  line_id: string | null;
  description: string;
  details: string | null;
  /** Decimal string as invoiced ("12.5"); null when the document leaves it out. */
  quantity: string | null;
  /** UN/ECE Rec 20 unit code (C62, HUR, DAY…). */
  unit: string | null;
  /** Net unit price in the invoice currency, a decimal string (it may carry more than two decimals: BT-146). */
  unit_price: string | null;
  vat_category: string | null;
  vat_rate: string | null;
  /** Line net amount (BT-131), signed like the totals. */
  total_ht: number;
  /** The line's allowances and charges (BG-27, BG-28), included in total_ht; absent in rows parsed before they were read. */
  allowances_charges?: InboundAllowanceCharge[];
}

export interface InboundFields {
  invoice_number: string;
  /** invoice or credit_note, from the root (UBL) or the type code (UNTDID 1001). */
  document_type: 'invoice' | 'credit_note';
  type_code: string | null;
  /** BT-24: the specification the document claims (EN 16931, Factur-X BASIC, Peppol BIS…). */
  profile: string | null;
  issue_date: string;
  due_date: string | null;
  currency: string;
  seller_name: string | null;
  /** The seller's SIREN: legal registration (0002), else SIRET (0009) → 9 first digits, else FR VAT number. */
  sender_siren: string | null;
  seller_siret: string | null;
  seller_vat_number: string | null;
  buyer_name: string | null;
  buyer_siren: string | null;
  /**
   * Totals as the org owes them: an invoice positive, a credit note negative (its printed amounts negated), so
   * that summing received documents gives what is owed to a supplier. BT-109, BT-110 (null when absent), BT-112.
   */
  total_ht: number;
  total_vat: number | null;
  total_ttc: number;
  /** BT-115, the amount due (after prepaid amounts), signed like the totals. */
  amount_due: number | null;
  /** BT-106, BT-107, BT-108: the sum of the line nets, of the document's allowances and of its charges; null when absent. */
  line_total?: number | null;
  allowance_total?: number | null;
  charge_total?: number | null;
  /** The document-level allowances and charges (BG-20, BG-21); absent in rows parsed before they were read. */
  allowances_charges?: InboundAllowanceCharge[];
  vat_groups: InboundVatGroup[];
  lines: InboundLine[];
}

export type ParseErrorCode =
  | 'empty'
  | 'too_large'
  | 'not_xml'
  | 'unsupported_encoding'
  | 'dtd_refused'
  | 'malformed_xml'
  | 'unsupported_document'
  | 'pdf_encrypted'
  | 'pdf_unreadable'
  | 'pdf_no_invoice_attachment'
  | 'attachment_too_large'
  | 'missing_field'
  | 'invalid_amount'
  | 'invalid_date'
  | 'timeout'
  | 'internal_error';

export interface InboundParseError {
  code: ParseErrorCode;
  message: string;
  /** The field concerned (`total_ttc`, `issue_date`…) for a field error; else null. */
  field: string | null;
}

export type InboundParseResult =
  | { status: 'parsed'; format: InboundFormat; fields: InboundFields; xml: string }
  | { status: 'parse_failed'; format: InboundFormat | null; error: InboundParseError };

/** Thrown inside the parser only; parseInboundInvoice turns it into a parse_failed result. */
export class InboundParseFailure extends Error {
  constructor(
    readonly code: ParseErrorCode,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'InboundParseFailure';
  }
}
