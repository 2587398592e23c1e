// A worker thread that takes the invoice XML out of received PDFs (pdf-lib), one at a time, so that a hostile or
// broken PDF — pdf-lib reads every object of the file, and some garbage takes it tens of seconds — costs at most the
// time limit and the memory limit of lib/domain/einvoicing/parse/pdf.ts, which terminates it (and starts another). Plain JavaScript, loaded by path at
// run time (like lib/domain/facturx/schematron-worker.mjs): neither Next.js's bundler nor tsx needs to see it.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const { EncryptedPDFError, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } = require('pdf-lib');


/** Name-tree depth and node count walked at most: a hostile PDF's loops and fan-out end here. */
const MAX_TREE_DEPTH = 8;
const MAX_TREE_NODES = 1000;

class Failure extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const textOf = (o) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null);

/** Every file specification: the EmbeddedFiles name tree and the catalog's /AF array (PDF/A-3). */
function fileSpecs(pdf) {
  const specs = [];
  const seen = new Set();
  let nodes = 0;
  const add = (o) => {
    const spec = o ? pdf.context.lookup(o) : undefined;
    if (spec instanceof PDFDict && !seen.has(spec)) {
      seen.add(spec);
      specs.push(spec);
    }
  };
  const walk = (node, depth) => {
    const dict = node ? pdf.context.lookup(node) : undefined;
    if (!(dict instanceof PDFDict) || depth > MAX_TREE_DEPTH || ++nodes > MAX_TREE_NODES) return;
    const names = dict.lookup(PDFName.of('Names'));
    if (names instanceof PDFArray) for (let i = 1; i < names.size(); i += 2) add(names.get(i));
    const kids = dict.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) for (let i = 0; i < kids.size(); i++) walk(kids.get(i), depth + 1);
  };
  const catalogNames = pdf.catalog.lookup(PDFName.of('Names'));
  if (catalogNames instanceof PDFDict) walk(catalogNames.get(PDFName.of('EmbeddedFiles')), 0);
  const af = pdf.catalog.lookup(PDFName.of('AF'));
  if (af instanceof PDFArray) for (let i = 0; i < Math.min(af.size(), MAX_TREE_NODES); i++) add(af.get(i));
  return specs;
}

/** The stream's bytes, inflated within maxBytes (a zip bomb stops there); Flate or no filter only. */
function streamBytes(stream, maxBytes) {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
  if (filters.length === 0) {
    if (stream.contents.length > maxBytes) throw new Failure('attachment_too_large', `The embedded XML is larger than ${maxBytes} bytes.`);
    return stream.contents;
  }
  if (filters.length !== 1 || filters[0] !== '/FlateDecode') {
    throw new Failure('pdf_unreadable', `The embedded XML is encoded with ${filters.join(' ').slice(0, 60)}: only FlateDecode is read.`);
  }
  try {
    return inflateSync(stream.contents, { maxOutputLength: maxBytes });
  } catch (err) {
    if (err?.code === 'ERR_BUFFER_TOO_LARGE') throw new Failure('attachment_too_large', `The embedded XML inflates beyond ${maxBytes} bytes.`);
    throw new Failure('pdf_unreadable', 'The embedded XML stream is corrupt.');
  }
}

/** @param {{bytes: Uint8Array, maxBytes: number, names: string[]}} job */
async function extract({ bytes, maxBytes, names: wanted }) {
  let pdf;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
  } catch {
    throw new Failure('pdf_unreadable', 'The PDF cannot be read (corrupt or truncated).');
  }
  if (pdf.isEncrypted) throw new Failure('pdf_encrypted', 'The PDF is encrypted: its attachments cannot be read.');
  if (!(pdf.catalog instanceof PDFDict)) throw new Failure('pdf_unreadable', 'The PDF has no document catalog.');
  for (const spec of fileSpecs(pdf)) {
    const name = textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F')));
    if (!name || !wanted.includes(name.toLowerCase())) continue;
    const ef = spec.lookup(PDFName.of('EF'));
    const stream = ef instanceof PDFDict ? ef.lookup(PDFName.of('F')) : undefined;
    if (!(stream instanceof PDFRawStream)) throw new Failure('pdf_unreadable', `The PDF names ${name.slice(0, 60)} but holds no file for it.`);
    return { name, xml: streamBytes(stream, maxBytes) };
  }
  throw new Failure('pdf_no_invoice_attachment', `The PDF carries no ${wanted.join(', ')} attachment: it is not a Factur-X or ZUGFeRD invoice.`);
}

parentPort.on('message', async (job) => {
  try {
    const { name, xml } = await extract(job);
    parentPort.postMessage({ id: job.id, name, xml });
  } catch (err) {
    const failure = err instanceof Failure ? err : err instanceof EncryptedPDFError ? new Failure('pdf_encrypted', 'The PDF is encrypted.') : null;
    parentPort.postMessage({ id: job.id, ...(failure ? { code: failure.code, message: failure.message } : { code: 'pdf_unreadable', message: 'The PDF cannot be read.' }) });
  }
});
