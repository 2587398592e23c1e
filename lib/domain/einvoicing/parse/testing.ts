import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

/** A font's ToUnicode CMap (bfchar and bfrange, both forms) as code → text. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => String.fromCodePoint(...(h.match(/.{4}/g) ?? []).map((u) => Number.parseInt(u, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(Number.parseInt(m[1]!, 16), hex(m[2]!));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const start = Number.parseInt(m[1]!, 16);
      const end = Number.parseInt(m[2]!, 16);
      if (m[3]!.startsWith('[')) {
        let code = start;
        for (const u of m[3]!.matchAll(/<([0-9a-fA-F]+)>/g)) map.set(code++, hex(u[1]!));
      } else for (let c = start, u = Number.parseInt(m[3]!.slice(1, -1), 16); c <= end; c++, u++) map.set(c, String.fromCodePoint(u));
    }
  }
  return map;
}

const streamText = (stream: unknown) => (stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1') : '');

/**
 * The text of a PDF made by react-pdf (Identity-H fonts with ToUnicode maps), page by page, whitespace collapsed:
 * for tests on machines without poppler's pdftotext.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const out: string[] = [];
  for (const page of pdf.getPages()) {
    const fonts = new Map<string, Map<number, string>>();
    const fontDict = page.node.Resources()?.lookup(PDFName.of('Font'));
    if (fontDict instanceof PDFDict) {
      for (const [name, ref] of fontDict.entries()) {
        const font = pdf.context.lookup(ref as PDFRef);
        if (font instanceof PDFDict) fonts.set(name.asString(), toUnicode(streamText(font.lookup(PDFName.of('ToUnicode')))));
      }
    }
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => pdf.context.lookup(r)) : [contents];
    let current = new Map<number, string>();
    for (const content of streams) {
      for (const m of streamText(content).matchAll(/(\/[^\s/]+)\s+[\d.]+\s+Tf|\[((?:[^\]]*))\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
        if (m[1]) current = fonts.get(m[1]) ?? new Map();
        const runs = m[2] !== undefined ? [...m[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((r) => r[1]!) : m[3] !== undefined ? [m[3]] : [];
        if (runs.length) out.push(runs.map((h) => (h.match(/.{4}/g) ?? []).map((c) => current.get(Number.parseInt(c, 16)) ?? '').join('')).join(''));
      }
    }
  }
  return out.join(' ').replace(/[\s\u00a0\u202f]+/g, ' ');
}
