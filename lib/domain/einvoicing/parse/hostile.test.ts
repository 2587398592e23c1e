import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AFRelationship, PDFDocument, PDFHexString } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { slowestHealthzWhile } from '@/lib/testing/responsiveness';
import { INBOUND_PARSE_LIMITS, parseInboundBounded, renderInboundPdfBounded } from './bounded';
import { MAX_INBOUND_BYTES, parseInboundInvoice } from './parse-inbound-invoice';
import { MAX_READABLE_LINES, MAX_READABLE_TEXT } from './render-inbound-pdf';
import { pdfText } from './testing';
import type { ParseErrorCode } from './types';

/** `n` pseudo-random bytes, the same for the same seed (xorshift32). */
function seededBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const SAMPLE = readFileSync(path.join(process.cwd(), 'lib/domain/einvoicing/parse/fixtures/samples/factur-x-basic.xml'));
const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * Parses as a received invoice is (in the sandbox), and checks it answered parse_failed with the code, without
 * throwing, within `ms`, and that this thread kept answering /healthz meanwhile.
 */
async function refused(bytes: Uint8Array, code: ParseErrorCode, ms = 2000) {
  const started = performance.now();
  const parsing = parseInboundBounded(bytes);
  expect(await slowestHealthzWhile(parsing)).toBeLessThan(1_000);
  const result = await parsing;
  const took = performance.now() - started;
  expect(result.status).toBe('parse_failed');
  if (result.status !== 'parse_failed') return null;
  expect(result.error.code, result.error.message).toBe(code);
  expect(result.error.message.length).toBeGreaterThan(10);
  expect(took).toBeLessThan(ms);
  return result.error;
}

async function pdfWith(attachments: Array<[string, Uint8Array]>) {
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText('Facture');
  for (const [name, bytes] of attachments) await pdf.attach(bytes, name, { mimeType: 'text/xml', afRelationship: AFRelationship.Data });
  return pdf;
}

// The sandbox's first run compiles its task and starts a worker (a second or two): not what the time bounds measure.
beforeAll(async () => {
  await parseInboundBounded(SAMPLE);
}, 30_000);

describe('hostile XML', () => {
  it('XXE: an external entity is never resolved (the DOCTYPE is refused before parsing)', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&x;</rsm:CrossIndustryInvoice>`;
    const error = await refused(utf8(xxe), 'dtd_refused');
    expect(JSON.stringify(error)).not.toContain('root:');
    await refused(utf8('<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:9/evil.dtd"><r/>'), 'dtd_refused');
    await refused(utf8('<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x"> %p;]><r/>'), 'dtd_refused');
  });

  it('billion laughs: refused at once, nothing expanded', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    await refused(utf8(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${levels}]><lolz>&lol9;</lolz>`), 'dtd_refused', 500);
  });

  it('an entity reference without a DTD is malformed XML, not resolved', async () => {
    await refused(utf8('<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&xxe;</rsm:CrossIndustryInvoice>'), 'malformed_xml');
  });

  it('oversized: refused by size before any parsing', async () => {
    const big = new Uint8Array(MAX_INBOUND_BYTES + 1).fill(0x20);
    big.set(utf8('<a>'), 0);
    const error = await refused(big, 'too_large', 200);
    expect(error?.message).toContain(String(MAX_INBOUND_BYTES));
  });

  it('a file just under the cap parses within the time bound (libxml2 is linear without a DTD)', async () => {
    const body = '<b c="1">x</b>'.repeat(Math.floor((MAX_INBOUND_BYTES - 100) / 14));
    await refused(utf8(`<?xml version="1.0"?><a>${body}</a>`), 'unsupported_document', 10_000);
  });

  it('truncated, wrong root, too deep, not XML, empty, another encoding', async () => {
    await refused(SAMPLE.subarray(0, SAMPLE.length / 2), 'malformed_xml');
    await refused(utf8('<html><body>Facture</body></html>'), 'unsupported_document');
    await refused(utf8('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>'), 'unsupported_document');
    // The right local name in another namespace is not a CII.
    await refused(utf8('<CrossIndustryInvoice xmlns="urn:example"/>'), 'unsupported_document');
    await refused(utf8(`<a>${'<b>'.repeat(300)}${'</b>'.repeat(300)}</a>`), 'malformed_xml');
    await refused(utf8('Facture n° 12, total 100 €'), 'not_xml');
    await refused(new Uint8Array(0), 'empty');
    await refused(randomBytes(4096), 'unsupported_encoding');
    await refused(utf8('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'), 'unsupported_encoding');
    await refused(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00]), 'unsupported_encoding');
  });
});

describe('hostile and broken PDFs', () => {
  it('reads the invoice out of a Factur-X, ZUGFeRD or XRechnung attachment', async () => {
    for (const name of ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml']) {
      const pdf = await pdfWith([['notes.xml', utf8('<notes/>')], [name, SAMPLE]]);
      const result = await parseInboundInvoice(await pdf.save(), { filename: 'facture.pdf', mime: 'application/pdf' });
      expect(result.status === 'parsed' && [result.format, result.fields.invoice_number, result.fields.total_ttc]).toEqual(['facturx', 'F20260023', 10490]);
    }
  });

  it('a PDF without the invoice attachment', async () => {
    await refused(await (await pdfWith([])).save(), 'pdf_no_invoice_attachment');
    await refused(await (await pdfWith([['invoice.xml', SAMPLE]])).save(), 'pdf_no_invoice_attachment');
  });

  it('an encrypted PDF (a standard security handler in its trailer)', async () => {
    const pdf = await pdfWith([['factur-x.xml', SAMPLE]]);
    pdf.context.trailerInfo.Encrypt = pdf.context.register(
      pdf.context.obj({ Filter: 'Standard', V: 5, R: 6, Length: 256, P: -1028, O: PDFHexString.of('00'.repeat(48)), U: PDFHexString.of('00'.repeat(48)) }),
    );
    await refused(await pdf.save(), 'pdf_encrypted');
  });

  it('a zip bomb attachment stops at the cap (20 MB of spaces in a 20 KB PDF)', async () => {
    await refused(await (await pdfWith([['factur-x.xml', new Uint8Array(20_000_000).fill(0x20)]])).save(), 'attachment_too_large');
  });

  it('the attachment goes through the same XML checks (XXE inside a Factur-X)', async () => {
    await refused(await (await pdfWith([['factur-x.xml', utf8('<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>')]])).save(), 'dtd_refused');
  });

  it('a truncated PDF is refused at once; garbage stops at the time limit, never hangs', async () => {
    const whole = await (await pdfWith([['factur-x.xml', SAMPLE]])).save();
    await refused(whole.subarray(0, Math.floor(whole.length * 0.6)), 'pdf_unreadable', 500);
    await refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048), Buffer.from('\n%%EOF\n')]), 'pdf_unreadable');
    // pdf-lib reads every object: a few MB of garbage keeps it busy far longer than the limit. The same garbage at each
    // run (random bytes sometimes ended pdf-lib's reading early, an unreadable PDF rather than a timeout).
    await refused(Buffer.concat([Buffer.from('%PDF-1.7\n'), seededBytes(6_000_000, 20261126), Buffer.from('\n%%EOF\n')]), 'timeout', INBOUND_PARSE_LIMITS.timeMs + 3000);
    // The worker that hit the limit was replaced: the next PDF is read as usual.
    const next = await parseInboundBounded(whole);
    expect(next.status === 'parsed' && next.fields.invoice_number).toBe('F20260023');
  }, 40_000);
});

describe('a received invoice built to be slow to lay out', () => {
  /** The basic sample with its first line repeated `n` times and the seller's name replaced. */
  function bigCii(n: number, sellerName: string) {
    const xml = SAMPLE.toString('utf8').replace(/<!--[\s\S]*?-->/g, '');
    const start = xml.indexOf('<ram:IncludedSupplyChainTradeLineItem>');
    const end = xml.indexOf('</ram:IncludedSupplyChainTradeLineItem>') + '</ram:IncludedSupplyChainTradeLineItem>'.length;
    const line = xml.slice(start, end);
    const seller = xml.indexOf('<ram:Name>', xml.indexOf('<ram:SellerTradeParty>'));
    const sellerEnd = xml.indexOf('</ram:Name>', seller);
    const withSeller = `${xml.slice(0, seller)}<ram:Name>${sellerName}${xml.slice(sellerEnd)}`;
    const at = withSeller.indexOf(line);
    return utf8(withSeller.slice(0, at) + line.repeat(n) + withSeller.slice(at + line.length));
  }

  it(`1,500 lines and a 1 MB seller name: read and rendered in the sandbox, the view cut at ${MAX_READABLE_LINES} lines, the server serving meanwhile`, async () => {
    const bytes = bigCii(1_500, 'S'.repeat(1_000_000));
    expect(bytes.length).toBeLessThan(MAX_INBOUND_BYTES);
    const parsing = parseInboundBounded(bytes);
    expect(await slowestHealthzWhile(parsing)).toBeLessThan(1_000);
    const result = await parsing;
    if (result.status !== 'parsed') throw new Error(JSON.stringify(result.error));
    expect(result.fields.lines.length).toBeGreaterThanOrEqual(1_500);
    const rendering = renderInboundPdfBounded(result.fields, { format: result.format, received_at: new Date('2026-12-01T10:00:00Z') });
    // On this thread the layout would stall every request for its whole 6 s or more; 2.5 s leaves room for a major GC
    // of the test process's own heap on a loaded 2-core CI machine (1.3 s seen once), which is not the render's doing.
    expect(await slowestHealthzWhile(rendering)).toBeLessThan(2_500);
    const text = await pdfText(await rendering);
    expect(text).toContain(`${'S'.repeat(MAX_READABLE_TEXT)}…`);
    expect(text).not.toContain('S'.repeat(MAX_READABLE_TEXT + 1));
    expect(text).toMatch(/… et 1\s\d{3} autres lignes, que seul le fichier reçu détaille \(cette vue en montre 200\)/);
  }, 90_000);
});
