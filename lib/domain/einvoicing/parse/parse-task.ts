// What lib/platform/sandbox's worker runs to read a received e-invoice (bounded.ts declares it and its limits). Apart
// from the render's file: a worker that only parses never loads react-pdf and the fonts.
import { type ParseHint, parseInboundInvoice } from './parse-inbound-invoice';
import type { InboundParseResult } from './types';

export const parseInWorker = ({ bytes, hint }: { bytes: Uint8Array; hint: ParseHint }): Promise<InboundParseResult> => parseInboundInvoice(bytes, hint);
