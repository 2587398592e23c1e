import type { XmlDocument } from 'libxml2-wasm';
import type { RawAllowanceCharge, RawInvoice } from './fields';
import type { PartyIds } from './values';
import { Reader } from './xml';

/** UN/CEFACT CII D16B (Factur-X, ZUGFeRD 2, XRechnung CII): EN 16931 and its BASIC subset. */
export const CII_NAMESPACE = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
const NS = {
  rsm: CII_NAMESPACE,
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

function party(p: Reader | null): { name: string | null; ids: PartyIds } {
  if (!p) return { name: null, ids: { legal: [], other: [], vat: [] } };
  return {
    name: p.text('ram:Name'),
    ids: {
      legal: p.ids('ram:SpecifiedLegalOrganization/ram:ID'),
      other: [...p.ids('ram:GlobalID'), ...p.ids('ram:URIUniversalCommunication/ram:URIID')],
      vat: p.ids("ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']").map((i) => i.value),
    },
  };
}

/** SpecifiedTradeAllowanceCharge (BG-20, BG-21 under the header settlement; BG-27, BG-28 under a line's). */
const allowanceCharges = (parent: Reader | null | undefined): RawAllowanceCharge[] =>
  (parent?.all('ram:SpecifiedTradeAllowanceCharge') ?? []).map((a) => ({
    indicator: a.text('ram:ChargeIndicator/udt:Indicator'),
    amount: a.text('ram:ActualAmount'),
    reason: a.text('ram:Reason'),
    reasonCode: a.text('ram:ReasonCode'),
    percentage: a.text('ram:CalculationPercent'),
    category: a.text('ram:CategoryTradeTax/ram:CategoryCode'),
    rate: a.text('ram:CategoryTradeTax/ram:RateApplicablePercent'),
  }));

export function readCii(doc: XmlDocument): RawInvoice {
  const root = new Reader(doc.root, NS);
  const header = root.one('rsm:ExchangedDocument');
  const tx = root.one('rsm:SupplyChainTradeTransaction');
  const agreement = tx?.one('ram:ApplicableHeaderTradeAgreement') ?? null;
  const settlement = tx?.one('ram:ApplicableHeaderTradeSettlement') ?? null;
  const sums = settlement?.one('ram:SpecifiedTradeSettlementHeaderMonetarySummation') ?? null;
  const currency = settlement?.text('ram:InvoiceCurrencyCode') ?? null;
  const seller = party(agreement?.one('ram:SellerTradeParty') ?? null);
  const buyer = party(agreement?.one('ram:BuyerTradeParty') ?? null);
  // BT-110 is the TaxTotalAmount in the invoice currency; BT-111 (another currencyID) is the VAT in the accounting currency.
  const taxTotals = sums?.all('ram:TaxTotalAmount') ?? [];
  const totalVat = taxTotals.find((t) => t.text('@currencyID') === currency) ?? taxTotals.find((t) => t.text('@currencyID') === null) ?? taxTotals[0];

  return {
    number: header?.text('ram:ID') ?? null,
    typeCode: header?.text('ram:TypeCode') ?? null,
    creditNoteRoot: false,
    profile: root.text('rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'),
    issueDate: header?.text('ram:IssueDateTime/udt:DateTimeString') ?? null,
    dueDate: settlement?.text('ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString') ?? null,
    currency,
    sellerName: seller.name,
    sellerIds: seller.ids,
    buyerName: buyer.name,
    buyerIds: buyer.ids,
    totalHt: sums?.text('ram:TaxBasisTotalAmount') ?? null,
    totalVat: totalVat ? totalVat.node.content.trim() || null : null,
    totalTtc: sums?.text('ram:GrandTotalAmount') ?? null,
    amountDue: sums?.text('ram:DuePayableAmount') ?? null,
    lineTotal: sums?.text('ram:LineTotalAmount') ?? null,
    allowanceTotal: sums?.text('ram:AllowanceTotalAmount') ?? null,
    chargeTotal: sums?.text('ram:ChargeTotalAmount') ?? null,
    allowanceCharges: allowanceCharges(settlement),
    groups: (settlement?.all('ram:ApplicableTradeTax') ?? []).map((t) => ({
      category: t.text('ram:CategoryCode'),
      rate: t.text('ram:RateApplicablePercent'),
      base: t.text('ram:BasisAmount'),
      vat: t.text('ram:CalculatedAmount'),
    })),
    lines: (tx?.all('ram:IncludedSupplyChainTradeLineItem') ?? []).map((l) => ({
      lineId: l.text('ram:AssociatedDocumentLineDocument/ram:LineID'),
      name: l.text('ram:SpecifiedTradeProduct/ram:Name'),
      details: l.text('ram:SpecifiedTradeProduct/ram:Description'),
      quantity: l.text('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'),
      unit: l.text('ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode'),
      price: l.text('ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount'),
      priceBase: l.text('ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:BasisQuantity'),
      category: l.text('ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:CategoryCode'),
      rate: l.text('ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax/ram:RateApplicablePercent'),
      total: l.text('ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount'),
      allowanceCharges: allowanceCharges(l.one('ram:SpecifiedLineTradeSettlement')),
    })),
  };
}
