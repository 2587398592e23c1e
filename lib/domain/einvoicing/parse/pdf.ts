import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { InboundParseFailure, type ParseErrorCode } from './types';

/** The embedded XML names of Factur-X, ZUGFeRD 2 and XRechnung hybrids, lower-cased. */
export const INVOICE_ATTACHMENTS = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/**
 * A PDF is read in a worker thread given this long and this much heap: pdf-lib parses every object of a file, and
 * a 9 MB PDF of garbage kept it busy 40 s here. A Factur-X invoice takes about 30 ms once the worker is up (docs/einvoicing.md).
 */
export const PDF_TIME_LIMIT_MS = 10_000;
const PDF_HEAP_MB = 256;

const WORKER_FILE = path.join(process.cwd(), 'lib/domain/einvoicing/parse/pdf-worker.mjs');

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');

type Answer = { id: number; name?: string; xml?: Uint8Array; code?: ParseErrorCode; message?: string };

/**
 * One worker per process, kept between files (loading pdf-lib costs about a second here), reading one PDF at a
 * time: a file that exceeds the limits takes the worker down with it, and the next file gets a fresh one.
 */
let reader: { worker: Worker; pending: Map<number, (answer: Answer | Error) => void> } | null = null;
let nextId = 0;
let queue: Promise<unknown> = Promise.resolve();

function pdfReader() {
  if (reader) return reader;
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB } });
  const current = { worker, pending: new Map<number, (answer: Answer | Error) => void>() };
  const fail = (err: Error) => {
    if (reader === current) reader = null;
    for (const settle of current.pending.values()) settle(err);
    current.pending.clear();
  };
  worker.on('message', (answer: Answer) => {
    current.pending.get(answer.id)?.(answer);
    current.pending.delete(answer.id);
    if (current.pending.size === 0) worker.unref();
  });
  // Out of heap (ERR_WORKER_OUT_OF_MEMORY) or any crash: the file being read is what broke it.
  worker.on('error', () => fail(new InboundParseFailure('pdf_unreadable', 'The PDF could not be read within the memory allowed.')));
  worker.on('exit', () => fail(new InboundParseFailure('pdf_unreadable', 'The PDF reader stopped without an answer.')));
  reader = current;
  return current;
}

function readInWorker(bytes: Uint8Array, maxBytes: number): Promise<{ name: string; xml: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const { worker, pending } = pdfReader();
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      if (reader?.worker === worker) reader = null;
      void worker.terminate();
      reject(new InboundParseFailure('timeout', `The PDF was not read within ${PDF_TIME_LIMIT_MS / 1000} s: refused as unreadable.`));
    }, PDF_TIME_LIMIT_MS);
    pending.set(id, (answer) => {
      clearTimeout(timer);
      if (answer instanceof Error) reject(answer);
      else if (answer.code) reject(new InboundParseFailure(answer.code, answer.message ?? answer.code));
      else resolve({ name: answer.name!, xml: answer.xml! });
    });
    worker.ref();
    worker.postMessage({ id, bytes, maxBytes, names: INVOICE_ATTACHMENTS });
  });
}

/** The Factur-X / ZUGFeRD / XRechnung XML embedded in a PDF, as bytes. One PDF at a time per process. */
export function invoiceAttachment(bytes: Uint8Array, maxBytes: number): Promise<{ name: string; xml: Uint8Array }> {
  // A PDF ends with %%EOF (within its last kilobyte): without it the file was cut short, and is refused at once.
  if (!Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).includes('%%EOF')) {
    return Promise.reject(new InboundParseFailure('pdf_unreadable', 'The PDF is truncated (no %%EOF end marker).'));
  }
  const read = queue.then(() => readInWorker(bytes, maxBytes));
  queue = read.catch(() => undefined);
  return read;
}
