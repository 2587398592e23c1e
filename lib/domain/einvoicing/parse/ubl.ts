import type { XmlDocument } from 'libxml2-wasm';
import type { RawAllowanceCharge, RawInvoice } from './fields';
import type { PartyIds } from './values';
import { Reader } from './xml';

/** OASIS UBL 2.1 Invoice and CreditNote (EN 16931's UBL binding, Peppol BIS Billing 3). */
export const UBL_INVOICE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

function party(p: Reader | null): { name: string | null; ids: PartyIds } {
  if (!p) return { name: null, ids: { legal: [], other: [], vat: [] } };
  return {
    name: p.first('cac:PartyLegalEntity/cbc:RegistrationName', 'cac:PartyName/cbc:Name'),
    ids: {
      legal: p.ids('cac:PartyLegalEntity/cbc:CompanyID'),
      other: [...p.ids('cac:PartyIdentification/cbc:ID'), ...p.ids('cbc:EndpointID')],
      // BT-31 is the PartyTaxScheme whose TaxScheme is VAT (another one is BT-32, a local tax registration).
      vat: p.ids("cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID").map((i) => i.value),
    },
  };
}

/** cac:AllowanceCharge children (BG-20, BG-21 under the root; BG-27, BG-28 under a line; a price's own is BT-147, not read). */
const allowanceCharges = (parent: Reader): RawAllowanceCharge[] =>
  parent.all('cac:AllowanceCharge').map((a) => ({
    indicator: a.text('cbc:ChargeIndicator'),
    amount: a.text('cbc:Amount'),
    reason: a.text('cbc:AllowanceChargeReason'),
    reasonCode: a.text('cbc:AllowanceChargeReasonCode'),
    percentage: a.text('cbc:MultiplierFactorNumeric'),
    category: a.text('cac:TaxCategory/cbc:ID'),
    rate: a.text('cac:TaxCategory/cbc:Percent'),
  }));

export function readUbl(doc: XmlDocument): RawInvoice {
  const creditNote = doc.root.namespaceUri === UBL_CREDIT_NOTE_NAMESPACE;
  const root = new Reader(doc.root, NS);
  const currency = root.text('cbc:DocumentCurrencyCode');
  const seller = party(root.one('cac:AccountingSupplierParty/cac:Party'));
  const buyer = party(root.one('cac:AccountingCustomerParty/cac:Party'));
  // Two TaxTotals when the VAT is also stated in the accounting currency: BT-110 is the one in the document currency.
  const taxTotals = root.all('cac:TaxTotal');
  const taxTotal = taxTotals.find((t) => t.text('cbc:TaxAmount/@currencyID') === currency) ?? taxTotals[0];
  const sums = root.one('cac:LegalMonetaryTotal');
  const lineTag = creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const quantityTag = creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';

  return {
    number: root.text('cbc:ID'),
    typeCode: root.first('cbc:InvoiceTypeCode', 'cbc:CreditNoteTypeCode'),
    creditNoteRoot: creditNote,
    profile: root.text('cbc:CustomizationID'),
    issueDate: root.text('cbc:IssueDate'),
    dueDate: root.first('cbc:DueDate', 'cac:PaymentMeans/cbc:PaymentDueDate'),
    currency,
    sellerName: seller.name,
    sellerIds: seller.ids,
    buyerName: buyer.name,
    buyerIds: buyer.ids,
    totalHt: sums?.text('cbc:TaxExclusiveAmount') ?? null,
    totalVat: taxTotal?.text('cbc:TaxAmount') ?? null,
    totalTtc: sums?.text('cbc:TaxInclusiveAmount') ?? null,
    amountDue: sums?.text('cbc:PayableAmount') ?? null,
    lineTotal: sums?.text('cbc:LineExtensionAmount') ?? null,
    allowanceTotal: sums?.text('cbc:AllowanceTotalAmount') ?? null,
    chargeTotal: sums?.text('cbc:ChargeTotalAmount') ?? null,
    allowanceCharges: allowanceCharges(root),
    groups: (taxTotal?.all('cac:TaxSubtotal') ?? []).map((t) => ({
      category: t.text('cac:TaxCategory/cbc:ID'),
      rate: t.text('cac:TaxCategory/cbc:Percent'),
      base: t.text('cbc:TaxableAmount'),
      vat: t.text('cbc:TaxAmount'),
    })),
    lines: root.all(lineTag).map((l) => ({
      lineId: l.text('cbc:ID'),
      name: l.text('cac:Item/cbc:Name'),
      details: l.text('cac:Item/cbc:Description'),
      quantity: l.text(quantityTag),
      unit: l.text(`${quantityTag}/@unitCode`),
      price: l.text('cac:Price/cbc:PriceAmount'),
      priceBase: l.text('cac:Price/cbc:BaseQuantity'),
      category: l.text('cac:Item/cac:ClassifiedTaxCategory/cbc:ID'),
      rate: l.text('cac:Item/cac:ClassifiedTaxCategory/cbc:Percent'),
      total: l.text('cbc:LineExtensionAmount'),
      allowanceCharges: allowanceCharges(l),
    })),
  };
}
