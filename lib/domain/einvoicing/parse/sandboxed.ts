// What runs in lib/platform/sandbox's worker for a received e-invoice (bounded.ts declares the tasks and their limits).
import { type ParseHint, parseInboundInvoice } from './parse-inbound-invoice';
import { type InboundView, renderInboundPdf } from './render-inbound-pdf';
import type { InboundFields, InboundParseResult } from './types';

export const parseInWorker = ({ bytes, hint }: { bytes: Uint8Array; hint: ParseHint }): Promise<InboundParseResult> => parseInboundInvoice(bytes, hint);

export const renderInWorker = ({ fields, view }: { fields: InboundFields; view: InboundView }): Promise<Uint8Array> => renderInboundPdf(fields, view);
