import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { InboundParseFailure, type ParseErrorCode } from './types';

/** The embedded XML names of Factur-X, ZUGFeRD 2 and XRechnung hybrids, lower-cased. */
export const INVOICE_ATTACHMENTS = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/**
 * A PDF is read in a worker thread given this long and this much heap: pdf-lib parses every object of a file, and
 * a 9 MB PDF of garbage kept it busy 40 s here. A Factur-X invoice of ours takes about 0.2 s (docs/einvoicing.md).
 */
export const PDF_TIME_LIMIT_MS = 10_000;
const PDF_HEAP_MB = 256;

const WORKER_FILE = path.join(process.cwd(), 'lib/einvoicing/parse/pdf-worker.mjs');

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');

/** The Factur-X / ZUGFeRD / XRechnung XML embedded in a PDF, as bytes. */
export function invoiceAttachment(bytes: Uint8Array, maxBytes: number): Promise<{ name: string; xml: Uint8Array }> {
  // A PDF ends with %%EOF (within its last kilobyte): without it the file was cut short, and is refused at once.
  if (!Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).includes('%%EOF')) {
    return Promise.reject(new InboundParseFailure('pdf_unreadable', 'The PDF is truncated (no %%EOF end marker).'));
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, {
      workerData: { bytes, maxBytes, names: INVOICE_ATTACHMENTS },
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB },
    });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done();
    };
    const timer = setTimeout(
      () => settle(() => reject(new InboundParseFailure('timeout', `The PDF was not read within ${PDF_TIME_LIMIT_MS / 1000} s: refused as unreadable.`))),
      PDF_TIME_LIMIT_MS,
    );
    worker.on('message', (msg: { name?: string; xml?: Uint8Array; code?: ParseErrorCode; message?: string }) =>
      settle(() => (msg.code ? reject(new InboundParseFailure(msg.code, msg.message ?? msg.code)) : resolve({ name: msg.name!, xml: msg.xml! }))),
    );
    // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or any crash of the worker: the file is what broke it.
    worker.on('error', () => settle(() => reject(new InboundParseFailure('pdf_unreadable', 'The PDF could not be read within the memory allowed.'))));
    worker.on('exit', () => settle(() => reject(new InboundParseFailure('pdf_unreadable', 'The PDF reader stopped without an answer.'))));
  });
}
