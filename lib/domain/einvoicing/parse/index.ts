export { allowanceChargeLabel, allowancesChargesSum, signedAllowanceCharge } from './allowances';
export { INBOUND_PARSE_LIMITS, INBOUND_RENDER_LIMITS, parseInboundBounded, parseTask, renderInboundPdfBounded, renderTask } from './bounded';
export { MAX_INBOUND_BYTES, type ParseHint, parseInboundInvoice } from './parse-inbound-invoice';
export { isPdf } from './pdf';
export { type InboundView, MAX_READABLE_LINES, MAX_READABLE_TEXT } from './render-inbound-pdf';
export type { InboundAllowanceCharge, InboundFields, InboundFormat, InboundLine, InboundParseError, InboundParseResult, InboundVatGroup, ParseErrorCode } from './types';
