export { MAX_INBOUND_BYTES, type ParseHint, parseInboundInvoice } from './parse-inbound-invoice';
export type { InboundFields, InboundFormat, InboundLine, InboundParseError, InboundParseResult, InboundVatGroup, ParseErrorCode } from './types';
export { type InboundView, renderInboundPdf } from './render-inbound-pdf';
