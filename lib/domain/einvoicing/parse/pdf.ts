import { inflateSync } from 'node:zlib';
import { EncryptedPDFError, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { InboundParseFailure } from './types';

/*
 * The invoice XML out of a received PDF (pdf-lib). pdf-lib parses every object of a file, and some garbage keeps it
 * busy tens of seconds: the parser runs in lib/platform/sandbox (bounded.ts), whose time and heap bound what a hostile
 * PDF costs, never on the thread that serves requests or runs jobs.
 */

/** The embedded XML names of Factur-X, ZUGFeRD 2 and XRechnung hybrids, lower-cased. */
export const INVOICE_ATTACHMENTS = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/** Name-tree depth and node count walked at most: a hostile PDF's loops and fan-out end here. */
const MAX_TREE_DEPTH = 8;
const MAX_TREE_NODES = 1000;

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');

const textOf = (o: unknown) => (o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : null);

/** Every file specification: the EmbeddedFiles name tree and the catalog's /AF array (PDF/A-3). */
function fileSpecs(pdf: PDFDocument): PDFDict[] {
  const specs: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  let nodes = 0;
  const add = (o: unknown) => {
    const spec = o ? pdf.context.lookup(o as PDFDict) : undefined;
    if (spec instanceof PDFDict && !seen.has(spec)) {
      seen.add(spec);
      specs.push(spec);
    }
  };
  const walk = (node: unknown, depth: number) => {
    const dict = node ? pdf.context.lookup(node as PDFDict) : undefined;
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
function streamBytes(stream: PDFRawStream, maxBytes: number): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
  if (filters.length === 0) {
    if (stream.contents.length > maxBytes) throw new InboundParseFailure('attachment_too_large', `The embedded XML is larger than ${maxBytes} bytes.`);
    return stream.contents;
  }
  if (filters.length !== 1 || filters[0] !== '/FlateDecode') {
    throw new InboundParseFailure('pdf_unreadable', `The embedded XML is encoded with ${filters.join(' ').slice(0, 60)}: only FlateDecode is read.`);
  }
  try {
    return inflateSync(stream.contents, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new InboundParseFailure('attachment_too_large', `The embedded XML inflates beyond ${maxBytes} bytes.`);
    throw new InboundParseFailure('pdf_unreadable', 'The embedded XML stream is corrupt.');
  }
}

/** The Factur-X / ZUGFeRD / XRechnung XML embedded in a PDF, as bytes. */
export async function invoiceAttachment(bytes: Uint8Array, maxBytes: number): Promise<{ name: string; xml: Uint8Array }> {
  // A PDF ends with %%EOF (within its last kilobyte): without it the file was cut short, and is refused at once.
  if (!Buffer.from(bytes.subarray(Math.max(0, bytes.length - 1024))).includes('%%EOF')) {
    throw new InboundParseFailure('pdf_unreadable', 'The PDF is truncated (no %%EOF end marker).');
  }
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, throwOnInvalidObject: true, updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new InboundParseFailure('pdf_encrypted', 'The PDF is encrypted.');
    throw new InboundParseFailure('pdf_unreadable', 'The PDF cannot be read (corrupt or truncated).');
  }
  if (pdf.isEncrypted) throw new InboundParseFailure('pdf_encrypted', 'The PDF is encrypted: its attachments cannot be read.');
  if (!(pdf.catalog instanceof PDFDict)) throw new InboundParseFailure('pdf_unreadable', 'The PDF has no document catalog.');
  let specs: PDFDict[];
  try {
    specs = fileSpecs(pdf);
  } catch {
    // A broken object graph (a name tree of the wrong types) is the file's fault, not ours.
    throw new InboundParseFailure('pdf_unreadable', 'The PDF cannot be read (a broken attachment tree).');
  }
  for (const spec of specs) {
    const name = textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F')));
    if (!name || !INVOICE_ATTACHMENTS.includes(name.toLowerCase())) continue;
    const ef = spec.lookup(PDFName.of('EF'));
    const stream = ef instanceof PDFDict ? ef.lookup(PDFName.of('F')) : undefined;
    if (!(stream instanceof PDFRawStream)) throw new InboundParseFailure('pdf_unreadable', `The PDF names ${name.slice(0, 60)} but holds no file for it.`);
    return { name, xml: streamBytes(stream, maxBytes) };
  }
  throw new InboundParseFailure('pdf_no_invoice_attachment', `The PDF carries no ${INVOICE_ATTACHMENTS.join(', ')} attachment: it is not a Factur-X or ZUGFeRD invoice.`);
}
