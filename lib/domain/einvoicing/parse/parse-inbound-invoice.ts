import { CII_NAMESPACE, readCii } from './cii';
import { type RawInvoice, toFields } from './fields';
import { invoiceAttachment, isPdf } from './pdf';
import { type InboundFormat, InboundParseFailure, type InboundParseResult } from './types';
import { readUbl, UBL_CREDIT_NOTE_NAMESPACE, UBL_INVOICE_NAMESPACE } from './ubl';
import { withXmlDocument, xmlText } from './xml';

/**
 * 10 MiB: checked before anything is parsed, for the file received and for the XML a PDF carries (after
 * inflating, which stops there). A 200-line EN 16931 invoice is about 200 KB; a Factur-X PDF rarely 2 MB.
 */
export const MAX_INBOUND_BYTES = 10 * 1024 * 1024;

export interface ParseHint {
  filename?: string | null;
  mime?: string | null;
}

/** The syntax of a parsed document from its root element: CII, UBL Invoice or UBL CreditNote. */
function readInvoiceXml(text: string): { syntax: 'cii' | 'ubl'; raw: RawInvoice } {
  return withXmlDocument(text, (doc) => {
    const root = doc.root;
    if (root.name === 'CrossIndustryInvoice' && root.namespaceUri === CII_NAMESPACE) return { syntax: 'cii', raw: readCii(doc) };
    if (
      (root.name === 'Invoice' && root.namespaceUri === UBL_INVOICE_NAMESPACE) ||
      (root.name === 'CreditNote' && root.namespaceUri === UBL_CREDIT_NOTE_NAMESPACE)
    ) {
      return { syntax: 'ubl', raw: readUbl(doc) };
    }
    const ns = root.namespaceUri ? ` {${root.namespaceUri.slice(0, 100)}}` : '';
    throw new InboundParseFailure(
      'unsupported_document',
      `The XML root is ${root.name.slice(0, 60)}${ns}: expected a UN/CEFACT CrossIndustryInvoice or a UBL 2.1 Invoice or CreditNote.`,
    );
  });
}

/**
 * A received e-invoice — CII, UBL 2.1 (Invoice, CreditNote) or a Factur-X/ZUGFeRD PDF — read into the Inbound
 * invoice fields. Never throws: anything it cannot read is a `parse_failed` result with a code and a message.
 * The format is sniffed from the bytes (`%PDF-`, else XML); the hint only names the file in messages.
 */
export async function parseInboundInvoice(bytes: Uint8Array, hint: ParseHint = {}): Promise<InboundParseResult> {
  let format: InboundFormat | null = null;
  try {
    if (bytes.length === 0) throw new InboundParseFailure('empty', 'The file is empty.');
    if (bytes.length > MAX_INBOUND_BYTES) {
      throw new InboundParseFailure('too_large', `The file is ${bytes.length} bytes: received invoices are read up to ${MAX_INBOUND_BYTES} bytes.`);
    }
    let xmlBytes = bytes;
    if (isPdf(bytes)) {
      format = 'facturx';
      xmlBytes = (await invoiceAttachment(bytes, MAX_INBOUND_BYTES)).xml;
    }
    const text = xmlText(xmlBytes);
    const { syntax, raw } = readInvoiceXml(text);
    format ??= syntax;
    if (format === 'facturx' && syntax !== 'cii') {
      throw new InboundParseFailure('unsupported_document', 'The PDF carries a UBL document: Factur-X embeds a CII.');
    }
    return { status: 'parsed', format, fields: toFields(raw), xml: text.replace(/^\uFEFF/, '') };
  } catch (err) {
    if (err instanceof InboundParseFailure) return { status: 'parse_failed', format, error: { code: err.code, message: err.message, field: err.field } };
    const name = hint.filename ? ` ${hint.filename.slice(0, 100)}` : '';
    return { status: 'parse_failed', format, error: { code: 'internal_error', message: `The file${name} could not be read.`, field: null } };
  }
}
