import { Dec } from '@/lib/platform/money';
import { type InboundAllowanceCharge, type InboundFields, InboundParseFailure } from './types';
import { cents, day, decimal, isCreditNoteCode, optionalCents, type PartyIds, rate, requiredCents, requiredDay, signed, siretOf, sirenOf } from './values';

/** What the CII and UBL readers take out of a document, as text: one conversion to fields for both syntaxes. */
export interface RawInvoice {
  number: string | null;
  typeCode: string | null;
  /** UBL's CreditNote root: a credit note whatever its type code. */
  creditNoteRoot: boolean;
  profile: string | null;
  issueDate: string | null;
  dueDate: string | null;
  currency: string | null;
  sellerName: string | null;
  sellerIds: PartyIds;
  buyerName: string | null;
  buyerIds: PartyIds;
  totalHt: string | null;
  totalVat: string | null;
  totalTtc: string | null;
  amountDue: string | null;
  /** BT-106, BT-107, BT-108. */
  lineTotal: string | null;
  allowanceTotal: string | null;
  chargeTotal: string | null;
  allowanceCharges: RawAllowanceCharge[];
  groups: Array<{ category: string | null; rate: string | null; base: string | null; vat: string | null }>;
  lines: Array<{
    lineId: string | null;
    name: string | null;
    details: string | null;
    quantity: string | null;
    unit: string | null;
    price: string | null;
    priceBase: string | null;
    category: string | null;
    rate: string | null;
    total: string | null;
    allowanceCharges: RawAllowanceCharge[];
  }>;
}

/** One allowance or charge as text (CII SpecifiedTradeAllowanceCharge, UBL AllowanceCharge). */
export interface RawAllowanceCharge {
  indicator: string | null;
  amount: string | null;
  reason: string | null;
  reasonCode: string | null;
  percentage: string | null;
  category: string | null;
  rate: string | null;
}

/** Net unit price = price / base quantity (BT-146 / BT-149), exact. */
function unitPrice(price: string | null, base: string | null, index: number): string | null {
  const p = decimal(price, `lines.${index}.unit_price`);
  const b = decimal(base, `lines.${index}.unit_price`);
  if (p === null || b === null || new Dec(b).isZero()) return p;
  return new Dec(p).dividedBy(b).toFixed();
}

/** An allowance or a charge: its indicator says which ("true" or "1" a charge), its amount is required (BR-31, BR-36, BR-41, BR-42). */
function allowanceCharge(a: RawAllowanceCharge, field: string, sign: (cents: number) => number): InboundAllowanceCharge {
  return {
    charge: a.indicator === 'true' || a.indicator === '1',
    amount: sign(Math.abs(requiredCents(a.amount, `${field}.amount`))),
    reason: a.reason,
    reason_code: a.reasonCode,
    percentage: decimal(a.percentage, `${field}.percentage`),
    vat_category: a.category,
    vat_rate: rate(a.rate, `${field}.vat_rate`),
  };
}

export function toFields(raw: RawInvoice): InboundFields {
  if (!raw.number) throw new InboundParseFailure('missing_field', 'The document has no invoice number (BT-1).', 'invoice_number');
  const currency = raw.currency?.toUpperCase() ?? null;
  if (!currency || !/^[A-Z]{3}$/.test(currency)) {
    throw new InboundParseFailure('missing_field', 'The document has no ISO 4217 currency code (BT-5).', 'currency');
  }
  const credit = raw.creditNoteRoot || isCreditNoteCode(raw.typeCode);
  const sign = (amount: number) => signed(amount, credit);
  const optional = (text: string | null, field: string) => {
    const value = optionalCents(text, field);
    return value === null ? null : sign(value);
  };
  return {
    invoice_number: raw.number.slice(0, 200),
    document_type: credit ? 'credit_note' : 'invoice',
    type_code: raw.typeCode,
    profile: raw.profile,
    issue_date: requiredDay(raw.issueDate, 'issue_date'),
    due_date: day(raw.dueDate, 'due_date'),
    currency,
    seller_name: raw.sellerName,
    sender_siren: sirenOf(raw.sellerIds),
    seller_siret: siretOf(raw.sellerIds),
    seller_vat_number: raw.sellerIds.vat[0] ?? null,
    buyer_name: raw.buyerName,
    buyer_siren: sirenOf(raw.buyerIds),
    total_ht: sign(requiredCents(raw.totalHt, 'total_ht')),
    total_vat: optional(raw.totalVat, 'total_vat'),
    total_ttc: sign(requiredCents(raw.totalTtc, 'total_ttc')),
    amount_due: optional(raw.amountDue, 'amount_due'),
    line_total: optional(raw.lineTotal, 'line_total'),
    allowance_total: optional(raw.allowanceTotal, 'allowance_total'),
    charge_total: optional(raw.chargeTotal, 'charge_total'),
    allowances_charges: raw.allowanceCharges.map((a, i) => allowanceCharge(a, `allowances_charges.${i}`, sign)),
    vat_groups: raw.groups.map((g, i) => ({
      category: g.category,
      rate: rate(g.rate, `vat_groups.${i}.rate`),
      base: sign(requiredCents(g.base, `vat_groups.${i}.base`)),
      vat: sign(g.vat === null ? 0 : cents(g.vat, `vat_groups.${i}.vat`)),
    })),
    lines: raw.lines.map((l, i) => ({
      line_id: l.lineId,
      description: l.name ?? l.details ?? '',
      details: l.name ? l.details : null,
      quantity: decimal(l.quantity, `lines.${i}.quantity`),
      unit: l.unit,
      unit_price: unitPrice(l.price, l.priceBase, i),
      vat_category: l.category,
      vat_rate: rate(l.rate, `lines.${i}.vat_rate`),
      total_ht: sign(requiredCents(l.total, `lines.${i}.total_ht`)),
      allowances_charges: l.allowanceCharges.map((a, j) => ({ ...allowanceCharge(a, `lines.${i}.allowances_charges.${j}`, sign), vat_category: null, vat_rate: null })),
    })),
  };
}
