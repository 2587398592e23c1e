import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fontsOf, HOSTILE_TEXT, LONG_WORD, notdefShown } from '@/lib/domain/pdf/testing';
import { parseInboundInvoice } from './parse-inbound-invoice';
import { MAX_READABLE_TEXT, renderInboundPdf } from './render-inbound-pdf';
import { pdfText } from './testing';

describe('renderInboundPdf: what a sender writes is printed with embedded fonts only (issue 34)', () => {
  it('every text of the received invoice holding characters outside the fonts, a tab, line breaks, a cut surrogate pair', async () => {
    const result = await parseInboundInvoice(readFileSync(path.join(import.meta.dirname, 'fixtures/ubl-invoice.xml')));
    if (result.status !== 'parsed') throw new Error(JSON.stringify(result.error));
    // A PDF without a line break written first, as the process's earlier documents are: its font subsets made the
    // missing glyph's object before any line feed did (what once showed 66 boxes in a full run, by the order of files).
    expect(await notdefShown(await renderInboundPdf(result.fields, { format: result.format }))).toBe(0);
    const hostile = (label: string) => `${label} ${HOSTILE_TEXT}`;
    const fields = {
      ...result.fields,
      invoice_number: hostile('N'),
      seller_name: hostile('Vendeur'),
      buyer_name: hostile('Acheteur'),
      // Cut at MAX_READABLE_TEXT in the middle of an emoji: a lone surrogate is left.
      lines: result.fields.lines.map((line, i) => ({
        ...line,
        description: i === 0 ? `${'x'.repeat(MAX_READABLE_TEXT - 1)}😀` : hostile('Ligne'),
        details: `${hostile('Détails')} ${LONG_WORD}`,
      })),
    };
    const pdf = await renderInboundPdf(fields, { format: result.format });
    const fonts = await fontsOf(pdf);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.map((f) => f.name).join(' ')).not.toMatch(/Helvetica/);
    expect(await notdefShown(pdf)).toBe(0);
    const text = await pdfText(pdf);
    expect(text).toContain('Vendeur');
    expect(text).toContain('中文 日本語 ??? ???????');
  });
});
