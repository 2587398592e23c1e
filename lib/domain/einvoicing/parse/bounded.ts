import { runSandboxed, SandboxRefusal, sandboxTask } from '@/lib/platform/sandbox';
import { MAX_INBOUND_BYTES, type ParseHint, parseInboundInvoice } from './parse-inbound-invoice';
import type { InboundView } from './render-inbound-pdf';
import type { InboundFields, InboundParseResult } from './types';

/*
 * A received e-invoice comes from anyone on the e-invoicing network, without an account: it is read and rendered in
 * lib/platform/sandbox, bounded in time and heap (docs/security.md « Untrusted files »), never on the thread that
 * serves requests or runs jobs.
 */
/** The file is at most MAX_INBOUND_BYTES (10 MiB); libxml2 reads that in about a second, pdf-lib a Factur-X in 30 ms. */
export const INBOUND_PARSE_LIMITS = { timeMs: 15_000, heapMb: 512 };
/** react-pdf lays out at most MAX_READABLE_LINES lines (render-inbound-pdf.tsx): 200 take about 6 s here. */
export const INBOUND_RENDER_LIMITS = { timeMs: 30_000, heapMb: 512 };

export const parseTask = sandboxTask<{ bytes: Uint8Array; hint: ParseHint }, InboundParseResult>('lib/domain/einvoicing/parse/parse-task.ts', 'parseInWorker', INBOUND_PARSE_LIMITS);
export const renderTask = sandboxTask<{ fields: InboundFields; view: InboundView }, Uint8Array>('lib/domain/einvoicing/parse/render-task.ts', 'renderInWorker', INBOUND_RENDER_LIMITS);

/**
 * parseInboundInvoice in the sandbox: a file past the time is `parse_failed` with `timeout`, past the heap with
 * `too_large`. A busy sandbox throws (the job tries again later); so does a crash of the worker.
 */
export async function parseInboundBounded(bytes: Uint8Array, hint: ParseHint = {}): Promise<InboundParseResult> {
  // Empty or over the cap: refused by its size alone, before anything is copied to a worker.
  if (bytes.length === 0 || bytes.length > MAX_INBOUND_BYTES) return parseInboundInvoice(bytes, hint);
  try {
    return await runSandboxed(parseTask, { bytes, hint });
  } catch (error) {
    if (!(error instanceof SandboxRefusal) || (error.reason !== 'timeout' && error.reason !== 'memory')) throw error;
    const code = error.reason === 'timeout' ? 'timeout' : 'too_large';
    const limit = error.reason === 'timeout' ? `${INBOUND_PARSE_LIMITS.timeMs / 1000} s` : `${INBOUND_PARSE_LIMITS.heapMb} MB of memory`;
    return { status: 'parse_failed', format: null, error: { code, message: `The file could not be read within ${limit}: refused as unreadable.`, field: null } };
  }
}

/** The readable PDF of a parsed received invoice, rendered in the sandbox; a refusal throws (SandboxRefusal). */
export const renderInboundPdfBounded = (fields: InboundFields, view: InboundView): Promise<Uint8Array> => runSandboxed(renderTask, { fields, view });
