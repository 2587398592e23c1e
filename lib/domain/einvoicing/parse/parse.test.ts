import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInboundInvoice } from './parse-inbound-invoice';
import type { InboundFields, InboundParseResult } from './types';

const SAMPLES = path.join(process.cwd(), 'lib/domain/einvoicing/parse/fixtures/samples');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const utf8 = (s: string) => new TextEncoder().encode(s);

function parsed(result: InboundParseResult): InboundFields & { format: string } {
  if (result.status !== 'parsed') throw new Error(`parse_failed: ${JSON.stringify(result.error)}`);
  return { ...result.fields, format: result.format };
}

describe('the Factur-X samples (../shared/facturx/samples, kept in the repository with their licence)', () => {
  const files = readdirSync(SAMPLES).filter((f) => f.endsWith('.xml'));

  it('are all there (EN 16931 and BASIC)', () => {
    expect(files.sort()).toEqual(['factur-x-basic.xml', 'factur-x-en16931.xml']);
  });

  it.each(files)('%s parses to the fields its XML states, to the cent', async (file) => {
    const f = parsed(await parseInboundInvoice(readFileSync(path.join(SAMPLES, file)), { filename: file }));
    expect(f).toMatchObject({
      format: 'cii',
      invoice_number: 'F20260023',
      document_type: 'invoice',
      type_code: '380',
      issue_date: '2026-01-31',
      due_date: '2026-03-02',
      currency: 'EUR',
      seller_name: 'LE FOURNISSEUR',
      // SpecifiedLegalOrganization/ID schemeID 0002.
      sender_siren: '123456782',
      seller_siret: '12345678200077',
      seller_vat_number: 'FR11123456782',
      buyer_name: 'LE CLIENT',
      total_ht: 10000,
      total_vat: 490,
      total_ttc: 10490,
      amount_due: 10490,
    });
    expect(f.profile).toBe(file.includes('basic') ? 'urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic' : 'urn:cen.eu:en16931:2017');
    expect(f.vat_groups).toEqual([
      { category: 'S', rate: '20.00', base: 1100, vat: 220 },
      { category: 'E', rate: '0.00', base: 6000, vat: 0 },
      { category: 'S', rate: '10.00', base: 2700, vat: 270 },
      { category: 'K', rate: '0.00', base: 200, vat: 0 },
    ]);
    expect(f.lines.map((l) => [l.description, l.quantity, l.unit, l.unit_price, l.vat_category, l.vat_rate, l.total_ht])).toEqual([
      ['PRESTATION SUPPORT', '1', 'C62', '60', 'E', '0.00', 6000],
      ['FOURNITURES PAPIER', '3', 'C62', '10', 'S', '10.00', 2800],
      ['APPEL', '1', 'C62', '7', 'S', '20.00', 700],
    ]);
    // The group bases and VAT add up to the totals the parser read (the sample's own arithmetic, BR-CO-14).
    expect(f.vat_groups.reduce((s, g) => s + g.vat, 0)).toBe(f.total_vat);
    expect(f.vat_groups.reduce((s, g) => s + g.base, 0)).toBe(f.total_ht);
  });

  it('keeps the XML as received (byte order mark dropped) for the inbound record', async () => {
    const bytes = readFileSync(path.join(SAMPLES, 'factur-x-en16931.xml'));
    const result = await parseInboundInvoice(bytes);
    expect(result.status === 'parsed' && result.xml).toBe(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  });
});

describe('UBL 2.1', () => {
  it('reads an Invoice: SIREN from the legal registration (0002), totals and lines to the cent', async () => {
    const f = parsed(await parseInboundInvoice(fixture('ubl-invoice.xml')));
    expect(f).toMatchObject({
      format: 'ubl',
      invoice_number: 'MD-2026-0412',
      document_type: 'invoice',
      type_code: '380',
      profile: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
      issue_date: '2026-11-02',
      due_date: '2026-12-02',
      currency: 'EUR',
      seller_name: 'Menuiserie Dupont SARL',
      sender_siren: '552100554',
      seller_siret: '55210055400013',
      seller_vat_number: 'FR96552100554',
      buyer_name: 'Atelier Paraphe SAS',
      buyer_siren: '732829320',
      total_ht: 159950,
      total_vat: 31265,
      total_ttc: 191215,
      amount_due: 181215,
    });
    expect(f.vat_groups).toEqual([
      { category: 'S', rate: '20.00', base: 154950, vat: 30990 },
      { category: 'S', rate: '5.50', base: 5000, vat: 275 },
    ]);
    expect(f.lines).toEqual([
      { line_id: '1', description: 'Pose de parquet', details: 'Dépose de l’ancien revêtement comprise', quantity: '12.5', unit: 'HUR', unit_price: '45', vat_category: 'S', vat_rate: '20.00', total_ht: 56250, allowances_charges: [] },
      // 329.00 per 10 m² (BT-149 base quantity): 32.90 per unit.
      { line_id: '2', description: 'Lames de chêne massif', details: null, quantity: '30', unit: 'MTK', unit_price: '32.9', vat_category: 'S', vat_rate: '20.00', total_ht: 98700, allowances_charges: [] },
      { line_id: '3', description: 'Guide d’entretien du parquet', details: null, quantity: '2', unit: 'C62', unit_price: '25', vat_category: 'S', vat_rate: '5.50', total_ht: 5000, allowances_charges: [] },
    ]);
  });

  it('reads a CreditNote: every amount negated, the SIREN from the SIRET (0009), the due date from PaymentMeans', async () => {
    const f = parsed(await parseInboundInvoice(fixture('ubl-credit-note.xml')));
    expect(f).toMatchObject({
      format: 'ubl',
      invoice_number: 'MD-AV-2026-0031',
      document_type: 'credit_note',
      type_code: '381',
      issue_date: '2026-11-20',
      due_date: '2026-12-20',
      seller_name: 'Bois et Parquets du Rhône SAS',
      sender_siren: '404833048',
      seller_siret: '40483304800022',
      seller_vat_number: null,
      total_ht: -6580,
      total_vat: -1316,
      total_ttc: -7896,
      amount_due: -7896,
    });
    expect(f.vat_groups).toEqual([{ category: 'S', rate: '20.00', base: -6580, vat: -1316 }]);
    expect(f.lines).toEqual([
      { line_id: '1', description: 'Lames de chêne massif (retour)', details: null, quantity: '2', unit: 'MTK', unit_price: '32.9', vat_category: 'S', vat_rate: '20.00', total_ht: -6580, allowances_charges: [] },
    ]);
  });

  it('takes the SIREN from the French VAT number when the seller gives nothing else', async () => {
    const xml = fixture('ubl-invoice.xml')
      .toString('utf8')
      .replace('<cbc:EndpointID schemeID="0225">552100554</cbc:EndpointID>', '')
      .replace('<cbc:ID schemeID="0009">55210055400013</cbc:ID>', '<cbc:ID>DUPONT-01</cbc:ID>')
      .replace('<cbc:CompanyID schemeID="0002">552100554</cbc:CompanyID>', '');
    const f = parsed(await parseInboundInvoice(utf8(xml)));
    expect(f).toMatchObject({ sender_siren: '552100554', seller_siret: null, seller_vat_number: 'FR96552100554' });
  });

  it('leaves the SIREN null when no identifier carries a valid one (bad Luhn key, foreign VAT number)', async () => {
    const xml = fixture('ubl-invoice.xml')
      .toString('utf8')
      .replaceAll('552100554', '552100555')
      .replace('FR96552100555', 'DE123456789');
    const f = parsed(await parseInboundInvoice(utf8(xml)));
    expect(f.sender_siren).toBeNull();
  });

  it('a CII credit note (type 381) is signed like a UBL CreditNote', async () => {
    const xml = readFileSync(path.join(SAMPLES, 'factur-x-en16931.xml'), 'utf8').replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>381</ram:TypeCode>');
    const f = parsed(await parseInboundInvoice(utf8(xml)));
    expect([f.document_type, f.total_ht, f.total_vat, f.total_ttc, f.lines[0]!.total_ht]).toEqual(['credit_note', -10000, -490, -10490, -6000]);
  });
});

describe('amounts and dates are exact or refused', () => {
  const sample = () => readFileSync(path.join(SAMPLES, 'factur-x-en16931.xml'), 'utf8');
  const failure = async (xml: string) => {
    const result = await parseInboundInvoice(utf8(xml));
    if (result.status !== 'parse_failed') throw new Error('expected parse_failed');
    return result.error;
  };

  it.each([
    ['104.9O', 'invalid_amount', 'total_ttc'],
    ['1e2', 'invalid_amount', 'total_ttc'],
    ['104,90', 'invalid_amount', 'total_ttc'],
    ['104.905', 'invalid_amount', 'total_ttc'],
  ])('GrandTotalAmount %s → %s', async (value, code, field) => {
    expect(await failure(sample().replace('<ram:GrandTotalAmount>104.90<', `<ram:GrandTotalAmount>${value}<`))).toMatchObject({ code, field });
  });

  it('reads 104.900 and +104.9 as 10490 cents (decimal, not float)', async () => {
    for (const value of ['104.900', '+104.9']) {
      const f = parsed(await parseInboundInvoice(utf8(sample().replace('<ram:GrandTotalAmount>104.90<', `<ram:GrandTotalAmount>${value}<`))));
      expect(f.total_ttc).toBe(10490);
    }
  });

  it('refuses an impossible date and a missing total or number', async () => {
    expect(await failure(sample().replace('>20260131</udt:DateTimeString>  <!-- BT-2 ', '>20260231</udt:DateTimeString>  <!-- BT-2 '))).toMatchObject({
      code: 'invalid_date',
      field: 'issue_date',
    });
    expect(await failure(sample().replace(/<ram:GrandTotalAmount>.*<\/ram:GrandTotalAmount>/, ''))).toMatchObject({ code: 'missing_field', field: 'total_ttc' });
    expect(await failure(sample().replace('<ram:ID>F20260023</ram:ID>', ''))).toMatchObject({ code: 'missing_field', field: 'invoice_number' });
  });
});
