import { ParseOption, XmlDocument, type XmlNode } from 'libxml2-wasm';
import { InboundParseFailure } from './types';

/**
 * Reading untrusted XML safely. libxml2 (compiled to WebAssembly, libxml2-wasm): a conformant parser already in the
 * app for the Factur-X XSD, whose memory lives in its own WebAssembly heap, with XPath for the reading. The options
 * never substitute entities (no XML_PARSE_NOENT), never load a DTD or an external entity (no DTDLOAD, plus NO_XXE and
 * NONET), keep libxml2's default limits (no XML_PARSE_HUGE: depth 256, 10 MB per text node); and before libxml2
 * sees anything, a document with a DOCTYPE is refused outright — no invoice syntax needs one, and without a DTD
 * there is no entity to expand (billion laughs) nor to fetch (XXE).
 */
const OPTIONS =
  ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_NOERROR | ParseOption.XML_PARSE_NOWARNING;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** UTF-8 text of an XML file (BOM dropped), or a failure: another encoding, a DTD, not XML at all. */
export function xmlText(bytes: Uint8Array): string {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw new InboundParseFailure('unsupported_encoding', 'The XML is UTF-16: e-invoices are read in UTF-8 only.');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new InboundParseFailure('unsupported_encoding', 'The file is not valid UTF-8 text.');
  }
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '<') throw new InboundParseFailure('not_xml', 'The file is neither XML nor PDF.');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) {
    throw new InboundParseFailure('unsupported_encoding', `The XML declares the encoding ${declared.slice(0, 40)}: e-invoices are read in UTF-8 only.`);
  }
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new InboundParseFailure('dtd_refused', 'The XML carries a document type declaration (DOCTYPE/ENTITY): refused, no e-invoice syntax uses one.');
  }
  return text;
}

/** Parses, hands the document to `read`, and frees libxml2's memory whatever happens. */
export function withXmlDocument<T>(text: string, read: (doc: XmlDocument) => T): T {
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(text, { option: OPTIONS });
  } catch (err) {
    const detail = (err as { details?: Array<{ message?: string; line?: number }> }).details?.[0];
    const where = detail?.line ? ` (line ${detail.line}: ${detail.message?.trim()})` : '';
    throw new InboundParseFailure('malformed_xml', `The XML is not well-formed or is truncated${where}.`);
  }
  try {
    return read(doc);
  } finally {
    doc.dispose();
  }
}

export type Namespaces = Record<string, string>;

/** XPath reading of one element with a fixed set of namespace prefixes. */
export class Reader {
  constructor(
    readonly node: XmlNode,
    private readonly ns: Namespaces,
  ) {}

  /** The trimmed text of the first match, or null when absent or blank. */
  text(xpath: string): string | null {
    const value = this.node.get(xpath, this.ns)?.content.trim();
    return value ? value : null;
  }

  /** The first non-blank text among several paths. */
  first(...xpaths: string[]): string | null {
    for (const xpath of xpaths) {
      const value = this.text(xpath);
      if (value !== null) return value;
    }
    return null;
  }

  one(xpath: string): Reader | null {
    const found = this.node.get(xpath, this.ns);
    return found ? new Reader(found, this.ns) : null;
  }

  all(xpath: string): Reader[] {
    return this.node.find(xpath, this.ns).map((n) => new Reader(n, this.ns));
  }

  /** Texts of every match with their `schemeID` (identifiers: SIREN 0002, SIRET 0009, VAT…). */
  ids(xpath: string): Array<{ value: string; scheme: string | null }> {
    return this.all(xpath)
      .map((r) => ({ value: r.node.content.trim(), scheme: r.text('@schemeID') }))
      .filter((id) => id.value !== '');
  }
}
