import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseInboundInvoice } from './parse-inbound-invoice';
import { renderInboundPdf } from './render-inbound-pdf';
import { pdfText } from './testing';

const read = async (file: string) => {
  const result = await parseInboundInvoice(readFileSync(file));
  if (result.status !== 'parsed') throw new Error(JSON.stringify(result.error));
  return result;
};

describe('renderInboundPdf: a readable PDF of an XML-only received invoice', () => {
  it('a UBL invoice: a valid PDF with its seller, number, dates, lines, VAT breakdown and totals', async () => {
    const { fields, format } = await read(path.join(import.meta.dirname, 'fixtures/ubl-invoice.xml'));
    const pdf = await renderInboundPdf(fields, { format, received_at: new Date('2026-11-03T09:15:00Z') });
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Facture reçue MD-2026-0412');
    const text = await pdfText(pdf);
    for (const expected of [
      'Menuiserie Dupont SARL',
      'SIREN 552100554',
      'FACTURE REÇUE',
      'N° MD-2026-0412',
      "Date d’émission 02/11/2026",
      "Date d’échéance 02/12/2026",
      'Reçue le 03/11/2026',
      'Atelier Paraphe SAS',
      'format UBL 2.1',
      'Pose de parquet',
      '12,5 h 45,00 € 20 % 562,50 €',
      '30 m² 32,90 € 20 % 987,00 €',
      '5,5 % 50,00 € 2,75 €',
      'Total HT 1 599,50 €',
      'Total TVA 312,65 €',
      'Total TTC 1 912,15 €',
      'Net à payer 1 812,15 €',
      'Page 1 / 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('a CII: the Factur-X sample in its own words, every line and VAT group', async () => {
    const { fields, format } = await read(path.join(process.cwd(), 'lib/domain/einvoicing/parse/fixtures/samples/factur-x-en16931.xml'));
    const text = await pdfText(await renderInboundPdf(fields, { format }));
    for (const expected of ['LE FOURNISSEUR', 'N° F20260023', 'format UN/CEFACT CII', 'PRESTATION SUPPORT', 'APPEL', 'Total HT 100,00 €', 'Total TVA 4,90 €', 'Total TTC 104,90 €']) {
      expect(text).toContain(expected);
    }
    // A text's runs are joined by a space by pdfText: "(K)" is printed after the rate.
    expect(text).toMatch(/0 % \( ?K\) 2,00 € 0,00 €/);
  });

  it('a credit note shows its amounts as the seller printed them, under « Avoir reçu »', async () => {
    const { fields, format } = await read(path.join(import.meta.dirname, 'fixtures/ubl-credit-note.xml'));
    expect(fields.total_ttc).toBe(-7896);
    const text = await pdfText(await renderInboundPdf(fields, { format }));
    expect(text).toContain('AVOIR REÇU');
    expect(text).toContain('N° MD-AV-2026-0031');
    expect(text).toContain("Montant TTC de l’avoir 78,96 €");
    expect(text).toContain('2 m² 32,90 € 20 % 65,80 €');
    expect(text).not.toMatch(/(^|\s)[-−]\s?\d/);
  });

  it('another currency is printed with its code', async () => {
    const xml = readFileSync(path.join(import.meta.dirname, 'fixtures/ubl-invoice.xml'), 'utf8').replaceAll('EUR', 'CHF');
    const result = await parseInboundInvoice(new TextEncoder().encode(xml));
    if (result.status !== 'parsed') throw new Error(JSON.stringify(result.error));
    const text = await pdfText(await renderInboundPdf(result.fields, { format: result.format }));
    expect(text).toContain('Total TTC 1912,15 CHF');
  });
});
