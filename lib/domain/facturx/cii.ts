import type { DocumentType } from '@/db/schema/billing';
import { formatDecimal, xmlAmount as amount, xmlDate as day } from '@/lib/platform/format';
import { normalizeRate, type VatCategory } from '@/lib/platform/money';
import { buyerElectronicAddress, documentTypeCode, type ElectronicAddress, paymentTerms, sellerElectronicAddress, vatTaxPoint } from './mentions';
import { type Buyer, buyerSiren, type InvoiceModel, isBusiness, type Seller } from './model';
import { documentDay, legalIdentity, MENTION_TEXTS } from './texts';
import { exemptionOf, sellerVatNumber } from './vat';
import { el, serialize, type XmlElement, type XmlNode } from './xml';

/** BT-24 of the EN 16931 profile, and the Factur-X conformance level written in the XMP. */
export const EN16931_GUIDELINE = 'urn:cen.eu:en16931:2017';
export const FACTURX_CONFORMANCE = 'EN 16931';

/** BT-3 (UNTDID 1001; lib/domain/facturx/mentions.ts documentTypeCode: 503 for a deposit's credit note): a quote has no e-invoice. */
export const TYPE_CODES: Partial<Record<DocumentType, string>> = { facture: '380', acompte: '386', avoir: '381' };

export const isEInvoice = (type: DocumentType) => type in TYPE_CODES;

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

const dateTime = (d: string) => el('udt:DateTimeString', { format: '102' }, day(d));

/**
 * BT-23, the French "cadre de facturation": the letter is the nature of the operation (B goods, S services,
 * M mixed; M when the document does not say), the digit the kind (1 invoice, 4 final invoice after deposits).
 */
export function businessProcess(m: Pick<InvoiceModel, 'type' | 'operation_nature' | 'deposits'>): string {
  const letter = m.operation_nature === 'biens' ? 'B' : m.operation_nature === 'services' ? 'S' : 'M';
  return `${letter}${m.type === 'facture' && m.deposits.length > 0 ? '4' : '1'}`;
}

/**
 * BR-FR-20 processing rule (note BAR): B2C for a consumer, B2BINT for a business abroad, B2B for a French
 * business with a SIREN (BR-FR-11 requires it then). A French business without SIREN gets no BAR note.
 */
export function processingRule(buyer: Buyer): string | null {
  if (!isBusiness(buyer)) return 'B2C';
  if (buyer.country !== 'FR') return 'B2BINT';
  return buyerSiren(buyer) ? 'B2B' : null;
}

/** BG-16 payment means (UNTDID 4461) from the document's payment method, when it can be told. */
function paymentMeansCode(method: string | null, iban: string | null): string | null {
  const t = (method ?? '').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  if (/card|carte|\bcb\b/.test(t)) return '48';
  if (/cheque|check/.test(t)) return '20';
  if (/cash|especes/.test(t)) return '10';
  if (/sepa_debit|prelevement|direct debit/.test(t)) return '59';
  // A credit transfer needs the payee's IBAN (BR-61): the seller's bank details make it the default.
  if (iban && (t === '' || /transfer|virement|bank/.test(t))) return '58';
  return null;
}

const tradeTax = (category: VatCategory, rate: string) => [
  el('ram:TypeCode', 'VAT'),
  el('ram:CategoryCode', category),
  // "Not subject to VAT" has no rate (BR-O-05, BR-O-06, BR-O-09).
  category !== 'O' && el('ram:RateApplicablePercent', normalizeRate(rate)),
];

const uri = (a: ElectronicAddress | null) => a && el('ram:URIUniversalCommunication', [el('ram:URIID', { schemeID: a.scheme }, a.value)]);

const address = (a: { address?: string | null; postal_code?: string | null; city?: string | null; country?: string | null }) =>
  el('ram:PostalTradeAddress', [
    a.postal_code && el('ram:PostcodeCode', a.postal_code),
    a.address && el('ram:LineOne', a.address),
    a.city && el('ram:CityName', a.city),
    el('ram:CountryID', a.country || 'FR'),
  ]);

/** BT-34: the seller's electronic address is its SIREN in the French directory (scheme 0225), else its e-mail. */
function sellerParty(seller: Seller, vatNumber: string | null): XmlElement {
  const siret = seller.siret && /^\d{14}$/.test(seller.siret) ? seller.siret : null;
  return el('ram:SellerTradeParty', [
    siret && el('ram:GlobalID', { schemeID: '0009' }, siret),
    el('ram:Name', seller.legal_name ?? seller.name),
    seller.siren && el('ram:SpecifiedLegalOrganization', [el('ram:ID', { schemeID: '0002' }, seller.siren)]),
    address(seller),
    uri(sellerElectronicAddress(seller)),
    vatNumber && el('ram:SpecifiedTaxRegistration', [el('ram:ID', { schemeID: 'VA' }, vatNumber)]),
    // Without a VAT number (franchise en base), the SIREN is the seller's tax registration (BT-32, BR-E-02).
    !vatNumber && seller.siren && el('ram:SpecifiedTaxRegistration', [el('ram:ID', { schemeID: 'FC' }, seller.siren)]),
  ]);
}

/** BT-49: lib/domain/facturx/mentions.ts buyerElectronicAddress (a consumer without e-mail: the seller's own address). */
function buyerParty(buyer: Buyer, seller: Seller, withVat: boolean): XmlElement {
  const siren = buyerSiren(buyer);
  const siret = buyer.siret && /^\d{14}$/.test(buyer.siret) ? buyer.siret : null;
  return el('ram:BuyerTradeParty', [
    siret && el('ram:GlobalID', { schemeID: '0009' }, siret),
    el('ram:Name', buyer.name ?? '—'),
    siren && el('ram:SpecifiedLegalOrganization', [el('ram:ID', { schemeID: '0002' }, siren)]),
    address(buyer),
    uri(buyerElectronicAddress(buyer, siren, seller)),
    withVat && buyer.vat_intra && el('ram:SpecifiedTaxRegistration', [el('ram:ID', { schemeID: 'VA' }, buyer.vat_intra)]),
  ]);
}

/** BG-1 notes: the French mandatory ones (PMD penalties, PMT recovery indemnity, AAB discount), BAR, REG, AAI. */
function notes(m: InvoiceModel): XmlNode[] {
  const t = MENTION_TEXTS[m.language];
  const note = (content: string, subject?: string) => el('ram:IncludedNote', [el('ram:Content', content), subject && el('ram:SubjectCode', subject)]);
  const business = isBusiness(m.buyer);
  const rate = m.seller.penalty_rate ? `${formatDecimal(normalizeRate(m.seller.penalty_rate), 'en')} %` : null;
  const rule = processingRule(m.buyer);
  return [
    rule && note(rule, 'BAR'),
    note(legalIdentity(m.seller, m.language), 'REG'),
    note(business ? t.latePenalties(rate) : t.consumerPenalties, 'PMD'),
    note(business ? t.recoveryFee(`${amount(m.seller.recovery_fee)} EUR`) : t.consumerRecovery, 'PMT'),
    note(m.discount_terms ? `${t.earlyDiscount}${t.colon}${m.discount_terms}` : t.noEarlyDiscount, 'AAB'),
    m.type === 'avoir' &&
      (m.credit_reason_code || m.credit_reason_text) &&
      note(`${t.creditReason}${t.colon}${[m.credit_reason_code && t.creditReasons[m.credit_reason_code], m.credit_reason_text].filter(Boolean).join(' — ')}`, 'AAI'),
    m.notes && note(m.notes, 'AAI'),
  ];
}

/**
 * The Factur-X / ZUGFeRD CII XML of a finalized invoice, deposit invoice or credit note, EN 16931 profile
 * (docs/facturx.md maps every field to its BT). Product lines are invoice lines; discount lines (commercial
 * discounts, deducted deposits) are document-level allowances of their VAT group, so BT-106, BT-107, BT-109
 * and each group's base agree with the stored totals exactly.
 */
export function buildFacturX(m: InvoiceModel): string {
  const typeCode = documentTypeCode(m);
  if (!typeCode) throw new Error(`A ${m.type} is not an e-invoice: it has no Factur-X XML.`);
  if (!m.number) throw new Error('Only a finalized (numbered) document has a Factur-X XML.');
  const t = MENTION_TEXTS[m.language];
  const categories = [...new Set(m.totals.groups.map((g) => g.vat_category))];
  const vatNumber = sellerVatNumber(m.seller, categories);
  const products = m.items.filter((it) => it.kind === 'product');
  const discounts = m.items.filter((it) => it.kind === 'discount');
  const lineTotal = products.reduce((sum, it) => sum + it.total_ht, 0);
  const allowanceTotal = discounts.reduce((sum, it) => sum - it.total_ht, 0);
  // BT-8: VAT on services falls due on payment unless the seller opted for debits (CGI art. 269-2-c); the PDF
  // prints the option exactly when this is 5 (lib/domain/facturx/mentions.ts).
  const taxPoint = vatTaxPoint(m);
  const intraCommunity = categories.includes('K');
  // BT-72: the service date, else the issue date (the delivery date when none is stated) — except for a deposit,
  // asked before delivery, which names where the supply will take place instead (BG-13 may not be empty).
  const deliveryDate = m.service_date ?? (m.type !== 'acompte' || intraCommunity ? m.issue_date : null);
  const shipTo = m.delivery_address ?? (intraCommunity || !deliveryDate ? m.buyer : null);
  const payable = m.type !== 'avoir';
  const means = payable ? paymentMeansCode(m.payment_method, m.seller.iban) : null;
  // BR-CO-25: an amount due needs a due date or payment terms; a credit note says what it offsets.
  const termsText =
    paymentTerms(m) ??
    (m.type === 'avoir' && m.credited ? t.creditFor(t.creditInvoice[m.credited.type], m.credited.number, documentDay(m.credited.issue_date, m.language)) : null);
  const termsDue = payable ? m.due_date : null;
  const references = m.type === 'avoir' ? (m.credited ? [m.credited] : []) : m.deposits;

  const lines = products.map((it, i) =>
    el('ram:IncludedSupplyChainTradeLineItem', [
      el('ram:AssociatedDocumentLineDocument', [el('ram:LineID', String(i + 1))]),
      el('ram:SpecifiedTradeProduct', [el('ram:Name', it.description), it.details && el('ram:Description', it.details)]),
      el('ram:SpecifiedLineTradeAgreement', [el('ram:NetPriceProductTradePrice', [el('ram:ChargeAmount', amount(it.unit_price))])]),
      el('ram:SpecifiedLineTradeDelivery', [el('ram:BilledQuantity', { unitCode: it.unit ?? 'C62' }, it.quantity)]),
      el('ram:SpecifiedLineTradeSettlement', [
        el('ram:ApplicableTradeTax', tradeTax(it.vat_category, it.vat_rate)),
        el('ram:SpecifiedTradeSettlementLineMonetarySummation', [el('ram:LineTotalAmount', amount(it.total_ht))]),
      ]),
    ]),
  );

  const root = el('rsm:CrossIndustryInvoice', NS, [
    el('rsm:ExchangedDocumentContext', [
      el('ram:BusinessProcessSpecifiedDocumentContextParameter', [el('ram:ID', businessProcess(m))]),
      el('ram:GuidelineSpecifiedDocumentContextParameter', [el('ram:ID', EN16931_GUIDELINE)]),
    ]),
    el('rsm:ExchangedDocument', [
      el('ram:ID', m.number),
      el('ram:TypeCode', typeCode),
      el('ram:IssueDateTime', [dateTime(m.issue_date)]),
      ...notes(m),
    ]),
    el('rsm:SupplyChainTradeTransaction', [
      ...lines,
      el('ram:ApplicableHeaderTradeAgreement', [
        sellerParty(m.seller, vatNumber),
        buyerParty(m.buyer, m.seller, vatNumber !== null),
        m.quote && el('ram:SellerOrderReferencedDocument', [el('ram:IssuerAssignedID', m.quote.number)]),
      ]),
      el('ram:ApplicableHeaderTradeDelivery', [
        shipTo && el('ram:ShipToTradeParty', [shipTo.name && el('ram:Name', shipTo.name), address(shipTo)]),
        deliveryDate && el('ram:ActualDeliverySupplyChainEvent', [el('ram:OccurrenceDateTime', [dateTime(deliveryDate)])]),
      ]),
      el('ram:ApplicableHeaderTradeSettlement', [
        el('ram:InvoiceCurrencyCode', 'EUR'),
        means &&
          el('ram:SpecifiedTradeSettlementPaymentMeans', [
            el('ram:TypeCode', means),
            means === '58' && m.seller.iban && el('ram:PayeePartyCreditorFinancialAccount', [el('ram:IBANID', m.seller.iban.replace(/\s+/g, ''))]),
            means === '58' && m.seller.bic && el('ram:PayeeSpecifiedCreditorFinancialInstitution', [el('ram:BICID', m.seller.bic.replace(/\s+/g, ''))]),
          ]),
        ...m.totals.groups.map((g) => {
          const exemption = exemptionOf(g.vat_category, m.items);
          return el('ram:ApplicableTradeTax', [
            el('ram:CalculatedAmount', amount(g.vat)),
            el('ram:TypeCode', 'VAT'),
            exemption && el('ram:ExemptionReason', exemption.text[m.language]),
            el('ram:BasisAmount', amount(g.base)),
            el('ram:CategoryCode', g.vat_category),
            exemption?.code && el('ram:ExemptionReasonCode', exemption.code),
            g.vat_category === 'S' && taxPoint && el('ram:DueDateTypeCode', taxPoint),
            g.vat_category !== 'O' && el('ram:RateApplicablePercent', g.vat_rate),
          ]);
        }),
        ...discounts.map((it) =>
          el('ram:SpecifiedTradeAllowanceCharge', [
            el('ram:ChargeIndicator', [el('udt:Indicator', 'false')]),
            el('ram:ActualAmount', amount(-it.total_ht)),
            el('ram:Reason', it.description),
            el('ram:CategoryTradeTax', tradeTax(it.vat_category, it.vat_rate)),
          ]),
        ),
        (termsText || termsDue) &&
          el('ram:SpecifiedTradePaymentTerms', [termsText && el('ram:Description', termsText), termsDue && el('ram:DueDateDateTime', [dateTime(termsDue)])]),
        el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
          el('ram:LineTotalAmount', amount(lineTotal)),
          allowanceTotal > 0 && el('ram:AllowanceTotalAmount', amount(allowanceTotal)),
          el('ram:TaxBasisTotalAmount', amount(m.totals.total_ht)),
          el('ram:TaxTotalAmount', { currencyID: 'EUR' }, amount(m.totals.total_tva)),
          el('ram:GrandTotalAmount', amount(m.totals.total_ttc)),
          el('ram:DuePayableAmount', amount(m.totals.total_ttc)),
        ]),
        ...references.map((r) =>
          el('ram:InvoiceReferencedDocument', [
            el('ram:IssuerAssignedID', r.number),
            el('ram:FormattedIssueDateTime', [el('qdt:DateTimeString', { format: '102' }, day(r.issue_date))]),
          ]),
        ),
      ]),
    ]),
  ]);
  return serialize(root);
}
