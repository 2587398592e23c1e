import type { LifecycleIssuerRole } from '@/db/schema';
import { Dec } from '@/lib/platform/money';
import { InboundParseFailure } from '../parse/types';
import { cents, day } from '../parse/values';
import { Reader, withXmlDocument, xmlText } from '../parse/xml';
import { defaultIssuerRole, isLifecycleCode, LIFECYCLE_CODES } from '../lifecycle-codes';

/*
 * Lifecycle statuses travel between the PA and Paraphe as CDAR messages (UN/CEFACT D22B Cross Domain Acknowledgement
 * And Response, profile "CDV" of XP Z12-012; reference/french-invoicing-compliance.md §B8): one message, one status of
 * one invoice. The PA sends the statuses of our invoices (200 Déposée … 213 Rejetée) as flows of type
 * CustomerInvoiceLC; Paraphe sends 212 Encaissée of its invoices, and 204/207/210 of received ones, the same way.
 * This file writes and reads the subset every one of them uses: the referenced invoice (number, issue date, seller
 * SIREN), the status (ProcessConditionCode), its reason, who issued it, when, and for 212 the amount collected.
 */

const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** CDAR party role codes ↔ our issuer roles: SE seller, BY buyer, WK a platform (PA), DFH the PPF (its concentrator). */
const ROLE_CODES: Record<LifecycleIssuerRole, string> = { seller: 'SE', buyer: 'BY', seller_pa: 'WK', buyer_pa: 'WK', ppf: 'DFH' };

export interface CdarStatus {
  /** The message's own identifier (ExchangedDocument/ID): unique per status. */
  messageId: string;
  /** Status code (ProcessConditionCode), e.g. '200', '213'. */
  code: string;
  reasonCode: string | null;
  reason: string | null;
  issuerRole: LifecycleIssuerRole;
  /** When the status was issued (ISO 8601). */
  issuedAt: string;
  invoice: {
    number: string;
    /** YYYY-MM-DD. */
    issueDate: string | null;
    /** The invoice's seller (SIREN, scheme 0002). */
    sellerSiren: string | null;
    /** UNTDID 1001: 380 invoice, 386 deposit, 381 credit note. */
    typeCode: string | null;
  };
  /** 212 Encaissée: the amount collected, in cents, with its currency and VAT rate (BR-FR-CDV-14). */
  amount?: { cents: number; currency: string; vatRate: string | null } | null;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** UN/CEFACT format 204 (CCYYMMDDHHMMSS), in UTC. */
const stamp204 = (iso: string) => new Date(iso).toISOString().replace(/[-:T]/g, '').slice(0, 14);
const fromStamp204 = (s: string | null): string | null => {
  const m = s ? /^(\d{4})(\d{2})(\d{2})(\d{2})?(\d{2})?(\d{2})?/.exec(s) : null;
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0))).toISOString() : null;
};
const euros = (amountCents: number) => new Dec(amountCents).div(100).toFixed(2);

/** The CDAR message of one status (UTF-8 XML). */
export function buildCdar(status: CdarStatus): string {
  const label = isLifecycleCode(status.code) ? LIFECYCLE_CODES[status.code].label : status.code;
  const at = stamp204(status.issuedAt);
  const reason =
    status.reasonCode || status.reason
      ? `
        <ram:SpecifiedDocumentStatus>${status.reasonCode ? `
          <ram:ReasonCode>${esc(status.reasonCode)}</ram:ReasonCode>` : ''}${status.reason ? `
          <ram:Reason>${esc(status.reason)}</ram:Reason>` : ''}
        </ram:SpecifiedDocumentStatus>`
      : '';
  const amount = status.amount
    ? `
        <ram:SpecifiedDocumentCharacteristic>
          <ram:TypeCode>MEN</ram:TypeCode>
          <ram:ValueAmount currencyID="${esc(status.amount.currency)}">${euros(status.amount.cents)}</ram:ValueAmount>${status.amount.vatRate ? `
          <ram:ValuePercent>${esc(status.amount.vatRate)}</ram:ValuePercent>` : ''}
        </ram:SpecifiedDocumentCharacteristic>`
    : '';
  const issueDate = status.invoice.issueDate
    ? `
        <ram:FormattedIssueDateTime><qdt:DateTimeString format="102">${status.invoice.issueDate.replaceAll('-', '')}</qdt:DateTimeString></ram:FormattedIssueDateTime>`
    : '';
  const seller = status.invoice.sellerSiren
    ? `
        <ram:SellerTradeParty><ram:GlobalID schemeID="0002">${esc(status.invoice.sellerSiren)}</ram:GlobalID></ram:SellerTradeParty>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossDomainAcknowledgementAndResponse xmlns:rsm="${NS.rsm}" xmlns:ram="${NS.ram}" xmlns:qdt="${NS.qdt}" xmlns:udt="${NS.udt}">
  <rsm:ExchangedDocumentContext>
    <ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>REGULATED</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn.cpro.gouv.fr:1p0:CDV:invoice</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument>
    <ram:ID>${esc(status.messageId)}</ram:ID>
    <ram:Name>${esc(`${status.invoice.number}-CDV-${status.code}`)}</ram:Name>
    <ram:IssueDateTime><udt:DateTimeString format="204">${at}</udt:DateTimeString></ram:IssueDateTime>
    <ram:IssuerTradeParty><ram:RoleCode>${ROLE_CODES[status.issuerRole]}</ram:RoleCode></ram:IssuerTradeParty>
  </rsm:ExchangedDocument>
  <rsm:AcknowledgementDocument>
    <ram:MultipleReferencesIndicator><udt:Indicator>false</udt:Indicator></ram:MultipleReferencesIndicator>
    <ram:TypeCode>${status.code === '200' || status.code === '213' || status.code === '501' ? '305' : '23'}</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="204">${at}</udt:DateTimeString></ram:IssueDateTime>
    <ram:ReferenceReferencedDocument>
        <ram:IssuerAssignedID>${esc(status.invoice.number)}</ram:IssuerAssignedID>${status.invoice.typeCode ? `
        <ram:TypeCode>${esc(status.invoice.typeCode)}</ram:TypeCode>` : ''}${issueDate}
        <ram:ProcessConditionCode>${esc(status.code)}</ram:ProcessConditionCode>
        <ram:ProcessCondition>${esc(label)}</ram:ProcessCondition>${seller}${reason}${amount}
    </ram:ReferenceReferencedDocument>
  </rsm:AcknowledgementDocument>
</rsm:CrossDomainAcknowledgementAndResponse>
`;
}

const BUYER_PA_CODES = new Set(['202', '203', '221']);

function roleOf(code: string | null, status: string): LifecycleIssuerRole {
  if (code === 'SE') return 'seller';
  if (code === 'BY') return 'buyer';
  if (code === 'DFH') return 'ppf';
  // A platform (WK): the buyer's for what reception says (received, made available, routing error), else the seller's.
  if (code === 'WK') return BUYER_PA_CODES.has(status) ? 'buyer_pa' : 'seller_pa';
  return defaultIssuerRole(status);
}

/**
 * The statuses a CDAR message carries (one per referenced document). Throws InboundParseFailure on a file that is not
 * a CDAR message (not UTF-8 XML, a DTD, no status code): the caller keeps the flow id and the reason.
 */
export function readCdar(bytes: Uint8Array): CdarStatus[] {
  return withXmlDocument(xmlText(bytes), (doc) => {
    const root = new Reader(doc.root, NS);
    if (doc.root.name !== 'CrossDomainAcknowledgementAndResponse') throw new InboundParseFailure('unsupported_document', `The flow is a ${doc.root.name}, not a CDAR message.`);
    const messageId = root.text('rsm:ExchangedDocument/ram:ID');
    if (!messageId) throw new InboundParseFailure('missing_field', 'The CDAR message has no ExchangedDocument/ID.');
    const role = root.text('rsm:ExchangedDocument/ram:IssuerTradeParty/ram:RoleCode') ?? root.text('rsm:ExchangedDocument/ram:SenderTradeParty/ram:RoleCode');
    const sent = fromStamp204(root.text('rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString'));
    const statuses: CdarStatus[] = [];
    for (const ack of root.all('rsm:AcknowledgementDocument')) {
      const ackAt = fromStamp204(ack.text('ram:IssueDateTime/udt:DateTimeString')) ?? sent;
      for (const ref of ack.all('ram:ReferenceReferencedDocument')) {
        const code = ref.text('ram:ProcessConditionCode') ?? ack.text('ram:StatusCode');
        const number = ref.text('ram:IssuerAssignedID');
        if (!code || !/^\d{3}$/.test(code) || !number) throw new InboundParseFailure('missing_field', 'A CDAR status names no invoice number or no 3-digit status code.');
        const amount = ref.one("ram:SpecifiedDocumentCharacteristic[ram:TypeCode='MEN']");
        const value = amount?.text('ram:ValueAmount');
        statuses.push({
          messageId: statuses.length === 0 ? messageId : `${messageId}#${statuses.length}`,
          code,
          reasonCode: ref.text('ram:SpecifiedDocumentStatus/ram:ReasonCode'),
          reason: ref.text('ram:SpecifiedDocumentStatus/ram:Reason'),
          issuerRole: roleOf(role, code),
          issuedAt: ackAt ?? new Date().toISOString(),
          invoice: {
            number,
            issueDate: day(ref.text('ram:FormattedIssueDateTime/qdt:DateTimeString'), 'FormattedIssueDateTime'),
            sellerSiren: ref.first('ram:SellerTradeParty/ram:GlobalID', 'ram:IssuerTradeParty/ram:GlobalID'),
            typeCode: ref.text('ram:TypeCode'),
          },
          amount: amount && value ? { cents: cents(value, 'ValueAmount'), currency: amount.text('ram:ValueAmount/@currencyID') ?? 'EUR', vatRate: amount.text('ram:ValuePercent') } : null,
        });
      }
    }
    if (statuses.length === 0) throw new InboundParseFailure('missing_field', 'The CDAR message carries no status.');
    return statuses;
  });
}
