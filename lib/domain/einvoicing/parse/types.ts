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
