// What lib/platform/sandbox's worker runs to render a received e-invoice's readable PDF (bounded.ts declares it).
import { type InboundView, renderInboundPdf } from './render-inbound-pdf';
import type { InboundFields } from './types';

export const renderInWorker = ({ fields, view }: { fields: InboundFields; view: InboundView }): Promise<Uint8Array> => renderInboundPdf(fields, view);
