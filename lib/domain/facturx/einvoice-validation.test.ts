import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { line } from '@/lib/domain/documents/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { invoiceModelOf, loadDocument, loadItems } from '@/lib/domain/documents';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { buildFacturX } from './cii';
import { readSefManifest, SEF_DIR, validateEInvoice } from './einvoice-validation';
import { VALIDATION_DIR } from './validate';

const require = createRequire(import.meta.url);

describe('compiled schematrons (lib/domain/facturx/validation/sef)', () => {
  it('were compiled from the schematrons in the repo by the xslt3 installed: else run npm run facturx:compile', () => {
    const manifest = readSefManifest();
    expect(manifest.compiler, 'xslt3 was upgraded since').toBe(`xslt3 ${require('xslt3/package.json').version}`);
    // SaxonJS reads SEF files of its own release.
    expect(require('saxon-js/package.json').version).toBe(require('xslt3/package.json').version);
    for (const [name, entry] of Object.entries(manifest.stylesheets)) {
      const sha256 = createHash('sha256')
        .update(readFileSync(path.join(VALIDATION_DIR, entry.source)))
        .digest('hex');
      expect(sha256, `${entry.source} changed since ${name} was compiled`).toBe(entry.sha256);
      expect(readFileSync(path.join(SEF_DIR, entry.sef)).length).toBeGreaterThan(10_000);
    }
    expect(Object.keys(manifest.stylesheets).sort()).toEqual(['cen', 'facturx', 'fr']);
    // What is compiled is the official stylesheet rewritten by scripts/facturx-walk.mjs (its equivalence is proved
    // when compiling): a change to the rewrite must be compiled too.
    const rewrite = createHash('sha256').update(readFileSync(path.join(process.cwd(), 'scripts/facturx-walk.mjs'))).digest('hex');
    expect(manifest.rewrite, 'scripts/facturx-walk.mjs changed since the stylesheets were compiled').toBe(rewrite);
  });
});

describe('validateEInvoice', () => {
  let xml: string;

  beforeAll(async () => {
    const org = await createTestOrg();
    const api = await completeSeller(org);
    const buyer = await api.contact({ email: 'compta@client-sarl.fr' });
    const invoice = await api.issued({
      type: 'facture',
      contact_id: buyer.id,
      operation_nature: 'services',
      payment_method: 'bank_transfer',
      items: [line('Conseil', '2', 45000, '20', { unit: 'DAY' }), line('Formation', '1', 120000, '10'), line('Remise', '-1', 5000, '20')],
    });
    xml = buildFacturX(await invoiceModelOf(org.db, org.org.id, await loadDocument(org.db, org.org.id, invoice.id), await loadItems(org.db, org.org.id, invoice.id)));
  }, 60_000);

  it('finds nothing in a generated invoice', async () => {
    expect(await validateEInvoice(xml)).toEqual([]);
  }, 60_000);

  it('names the rule, the business term and the layer of a wrong total (BR-CO-10 on BT-106)', async () => {
    const broken = xml.replace(/<ram:LineTotalAmount>(\d+)\.(\d\d)<\/ram:LineTotalAmount>(\s*<ram:ChargeTotalAmount|\s*<ram:AllowanceTotalAmount)/, (_m, e: string, c: string, next: string) =>
      `<ram:LineTotalAmount>${e}.${String(Number(c) + 1).padStart(2, '0')}</ram:LineTotalAmount>${next}`,
    );
    expect(broken).not.toBe(xml);
    const errors = await validateEInvoice(broken);
    expect(errors).toContainEqual({ rule: 'BR-CO-10', message: expect.stringContaining('Sum of Invoice line net amount'), field: 'BT-106', layer: 'en16931' });
    expect(errors.filter((e) => e.layer === 'facturx').map((e) => e.rule)).toContain('BR-CO-10');
    expect(errors.filter((e) => e.layer === 'xsd')).toEqual([]);
  }, 60_000);

  it('reports a structure the XSD refuses, with the path of the element', async () => {
    const errors = await validateEInvoice(xml.replace('<ram:TypeCode>380</ram:TypeCode>', '<ram:TypeCode>380</ram:TypeCode><ram:Unexpected>1</ram:Unexpected>'));
    const xsd = errors.filter((e) => e.layer === 'xsd');
    expect(xsd).toEqual([
      {
        rule: 'XSD',
        message: expect.stringMatching(/^Element 'Unexpected': This element is not expected\./),
        field: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:Unexpected',
        layer: 'xsd',
      },
    ]);
  }, 60_000);

  it('reports a document that is not well-formed XML, without running the schematrons on it', async () => {
    const errors = await validateEInvoice(xml.replace('</rsm:ExchangedDocument>', ''));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.layer === 'xsd')).toBe(true);
    expect(errors[0]).toMatchObject({ rule: 'XSD', message: expect.stringContaining('mismatch'), field: expect.stringMatching(/^line \d+$/) });
  }, 60_000);

  it('applies the French rules: a buyer without electronic address breaks BR-FR-12 (BT-49)', async () => {
    const withoutAddress = xml.replace(/(<ram:BuyerTradeParty>[\s\S]*?)<ram:URIUniversalCommunication>[\s\S]*?<\/ram:URIUniversalCommunication>/, '$1');
    expect(withoutAddress).not.toBe(xml);
    const errors = await validateEInvoice(withoutAddress);
    expect(errors).toContainEqual({ rule: 'BR-FR-12', message: expect.any(String), field: 'BT-49', layer: 'br-fr' });
  }, 60_000);

  it('reads the Factur-X code lists: an unknown currency is refused by the Factur-X layer', async () => {
    const errors = await validateEInvoice(xml.replace('<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>', '<ram:InvoiceCurrencyCode>XYZ</ram:InvoiceCurrencyCode>'));
    expect(errors.some((e) => e.layer === 'facturx')).toBe(true);
  }, 60_000);
});
