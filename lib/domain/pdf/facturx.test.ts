import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@/lib/platform/dates';
import { documentRenders, documents } from '@/db/schema';
import { LocalStorage, readAll, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { buildFacturX, businessProcess, processingRule, vatOnDebits } from '@/lib/domain/facturx';
import { type Finding, inspectPdf, missingValidators, type PdfReport, validateXmlDirectory, type XmlReport, xmpValue } from '@/lib/domain/facturx/testing';
import { loadRenderModel, type RenderModel } from './model';
import { renderStoredDocument } from './render-stored-document';
import { completeSeller, documentsOfEveryKind, documentsOfIssue12, UNICODE_SAMPLE } from './testing';

const run = promisify(execFile);
const missing = missingValidators();
if (missing.length > 0 && !process.env.CI) {
  console.warn(
    `[lib/pdf] Factur-X validation SKIPPED: missing ${missing.join(', ')}. ` +
      'Install with: apt-get install -y libxml2-utils libsaxonhe-java default-jre-headless qpdf poppler-utils (CI fails instead of skipping).',
  );
}

describe('validation tools', () => {
  it('are installed (required in CI)', () => {
    if (process.env.CI) expect(missing, 'validators missing in CI').toEqual([]);
  });
});

describe('CII building blocks', () => {
  it('derives BT-23 from the operation nature and the document kind', () => {
    const of = (type: RenderModel['type'], operation_nature: RenderModel['operation_nature'], deposits = 0) =>
      businessProcess({ type, operation_nature, deposits: Array.from({ length: deposits }) as RenderModel['deposits'] });
    expect([of('facture', 'biens'), of('facture', 'services'), of('facture', 'mixte'), of('facture', null)]).toEqual(['B1', 'S1', 'M1', 'M1']);
    expect([of('acompte', 'services'), of('avoir', 'biens'), of('facture', 'services', 1), of('facture', 'biens', 2)]).toEqual(['S1', 'B1', 'S4', 'B4']);
  });

  it('states the processing rule only when the buyer data supports it', () => {
    const buyer = (o: Partial<RenderModel['buyer']>) => ({ type: 'professionnel', country: 'FR', siren: null, siret: null, ...o }) as RenderModel['buyer'];
    expect(processingRule(buyer({ type: 'particulier' }))).toBe('B2C');
    expect(processingRule(buyer({ country: 'DE' }))).toBe('B2BINT');
    expect(processingRule(buyer({ siren: '552032534' }))).toBe('B2B');
    expect(processingRule(buyer({ siret: '55203253400646' }))).toBe('B2B');
    expect(processingRule(buyer({}))).toBeNull();
  });
});

/**
 * Every kind of document, rendered through the real job path into storage, then checked the way a PA checks
 * it: the XML taken back out of the stored PDF through XSD, CEN EN 16931, Factur-X 1.0.9 and BR-FR (one JVM
 * per schematron for all files), and the PDF through qpdf, pdfdetach, pdfinfo -meta and pdffonts.
 */
describe.skipIf(missing.length > 0 && !process.env.CI)('every generated document passes the four validation layers', () => {
  let dir: string;
  let docs: Record<string, string>;
  const models = new Map<string, RenderModel>();
  const pdfs = new Map<string, PdfReport>();
  const texts = new Map<string, string>();
  const generated = new Map<string, string>();
  let reports: Map<string, XmlReport>;
  let org: TestOrg;
  const db = () => org.db;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'paraphe-facturx-'));
    const storage = new LocalStorage(path.join(dir, 'storage'));
    setStorage(storage);
    org = await createTestOrg();
    const api = await completeSeller(org);
    docs = { ...(await documentsOfEveryKind(org, api)), ...(await documentsOfIssue12(api)) };

    await mkdir(path.join(dir, 'xml'));
    for (const [name, id] of Object.entries(docs)) {
      expect(await renderStoredDocument(org.db, org.org.id, id)).toBe('ready');
      const [render] = await org.db.select().from(documentRenders).where(eq(documentRenders.document_id, id));
      const file = path.join(dir, `${name}.pdf`);
      const object = await storage.get(render!.storage_key!);
      const bytes = await readAll(object!.body);
      expect(sha256Hex(bytes)).toBe(render!.sha256);
      await writeFile(file, bytes);
      const model = await loadRenderModel(org.db, org.org.id, id);
      models.set(name, model);
      if (model.type !== 'devis') generated.set(name, buildFacturX(model));
      const report = await inspectPdf(file);
      pdfs.set(name, report);
      // Reading order, whitespace collapsed: a mention wrapped over two lines still reads as one.
      texts.set(name, (await run('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' '));
      // What is validated is what the PDF carries, extracted back.
      if (report.facturx) await writeFile(path.join(dir, 'xml', `${name}.xml`), report.facturx);
    }
    // The validators must see a broken file as broken: BT-106 off by a cent (BR-CO-10, BR-CO-13).
    const broken = generated.get('facture-multi-taux')!.replace(/<ram:LineTotalAmount>(\d+)\.(\d\d)<\/ram:LineTotalAmount>\n(\s*)<ram:AllowanceTotalAmount>/, (_m, e, c, pad) =>
      `<ram:LineTotalAmount>${e}.${String(Number(c) + 1).padStart(2, '0')}</ram:LineTotalAmount>\n${pad}<ram:AllowanceTotalAmount>`,
    );
    await writeFile(path.join(dir, 'xml', 'zz-negative-control.xml'), broken);
    reports = await validateXmlDirectory(path.join(dir, 'xml'));
  }, 240_000);

  afterAll(async () => {
    setStorage(undefined);
    // PDF_TEST_KEEP=1 keeps the rendered files for a look (pdftoppm -png …).
    if (process.env.PDF_TEST_KEEP) console.log(`[lib/pdf] rendered documents kept in ${dir}`);
    else if (dir) await rm(dir, { recursive: true, force: true });
  });

  const summary = (findings: Finding[]) => findings.map((f) => `${f.kind} ${f.id ?? ''} ${f.flag ?? ''} at ${f.location}: ${f.text}`);
  const E_INVOICES = [
    'facture-multi-taux',
    'facture-franchise-e',
    'facture-taux-zero-z',
    'invoice-reverse-charge-en',
    'facture-intracom-k',
    'facture-export-g',
    'facture-hors-champ-o',
    'facture-particulier',
    'acompte',
    'facture-finale',
    'avoir-partiel',
    'credit-note-cancellation-en',
    'facture-biens-debits',
    'avoir-biens-debits',
    'facture-services-debits',
    'facture-unicode',
    'facture-particulier-sans-email',
    'acompte-conditions',
    'avoir-acompte',
  ];

  it('covers every kind and every VAT category', () => {
    expect(Object.keys(docs).sort()).toEqual([...E_INVOICES, 'devis'].sort());
    const categories = new Set([...models.values()].flatMap((m) => m.totals.groups.map((g) => g.vat_category)));
    expect([...categories].sort()).toEqual(['AE', 'E', 'G', 'K', 'O', 'S', 'Z']);
    expect(new Set([...models.values()].map((m) => m.type))).toEqual(new Set(['facture', 'acompte', 'avoir', 'devis']));
  });

  it('the validators catch a wrong total (negative control)', () => {
    const r = reports.get('zz-negative-control.xml')!;
    expect(r.xsd).toEqual([]);
    expect(r.cen.map((f) => f.id)).toEqual(expect.arrayContaining(['BR-CO-10', 'BR-CO-13']));
    expect(r.facturx.length).toBeGreaterThan(0);
  });

  it.each(E_INVOICES)('%s: XSD, CEN EN 16931, Factur-X 1.0.9 and BR-FR schematrons pass', (name) => {
    const r = reports.get(`${name}.xml`);
    expect(r, `${name}.xml was not validated`).toBeDefined();
    expect(r!.xsd, 'XSD').toEqual([]);
    expect(summary(r!.cen), 'CEN EN 16931').toEqual([]);
    expect(summary(r!.facturx), 'Factur-X 1.0.9 EN 16931').toEqual([]);
    expect(summary(r!.fr), 'BR-FR').toEqual([]);
  });

  it.each(E_INVOICES)('%s: PDF/A-3 with factur-x.xml (qpdf, pdfdetach byte-for-byte, fx: XMP, embedded fonts)', (name) => {
    const pdf = pdfs.get(name)!;
    expect(pdf.qpdfOk, pdf.qpdfOutput).toBe(true);
    expect(pdf.attachments).toEqual(['factur-x.xml']);
    expect(pdf.facturx!.equals(Buffer.from(generated.get(name)!, 'utf8')), 'extracted XML differs from the generated one').toBe(true);
    expect(xmpValue(pdf.xmp, 'pdfaid:part')).toBe('3');
    expect(xmpValue(pdf.xmp, 'pdfaid:conformance')).toBe('B');
    expect(xmpValue(pdf.xmp, 'fx:DocumentType')).toBe('INVOICE');
    expect(xmpValue(pdf.xmp, 'fx:DocumentFileName')).toBe('factur-x.xml');
    expect(xmpValue(pdf.xmp, 'fx:Version')).toBe('1.0');
    expect(xmpValue(pdf.xmp, 'fx:ConformanceLevel')).toBe('EN 16931');
    expect(pdf.xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    expect(pdf.fonts.length).toBeGreaterThan(0);
    expect(pdf.fonts.filter((f) => !f.embedded)).toEqual([]);
  });

  it('a quote is a PDF/A-3 without e-invoice', () => {
    const pdf = pdfs.get('devis')!;
    expect(pdf.qpdfOk, pdf.qpdfOutput).toBe(true);
    expect(pdf.attachments).toEqual([]);
    expect(xmpValue(pdf.xmp, 'pdfaid:part')).toBe('3');
    expect(xmpValue(pdf.xmp, 'fx:ConformanceLevel')).toBeNull();
    expect(pdf.fonts.filter((f) => !f.embedded)).toEqual([]);
    const text = texts.get('devis')!;
    for (const mention of ['DEVIS', 'Valable jusqu', 'Acompte demandé à la commande : 30 %', 'Délai d', '6 semaines', 'Bon pour accord', 'précédés de la mention manuscrite « Bon pour accord »']) {
      expect(text).toContain(mention);
    }
  });

  it('prints the seller identity, the buyer, the number on every page and the page numbers', () => {
    for (const [name, text] of texts) {
      const m = models.get(name)!;
      const pages = pdfs.get(name)!.pages;
      for (const s of ['Atelier Paraphe SAS', '10 000,00', 'RCS Paris 732 829 320', 'SIREN 732829320', 'FR44732829320', m.number!]) {
        if (m.language === 'en' && s === '10 000,00') continue;
        expect(text, name).toContain(s);
      }
      expect(text.split(m.number!).length - 1, `${name}: number on every page`).toBeGreaterThanOrEqual(pages);
      expect(text, name).toContain(m.language === 'fr' ? `Page ${pages} / ${pages}` : `Page ${pages} of ${pages}`);
      expect(text, name).toContain(m.buyer.name!);
    }
  });

  it('multi-rate invoice: breakdown per rate, discounts, delivery address, payment and late-payment mentions', () => {
    const text = texts.get('facture-multi-taux')!;
    for (const s of [
      'TVA 20 % sur',
      'TVA 10 % sur',
      'TVA 5,5 % sur',
      'TVA 2,1 % sur',
      'Remise fidélité',
      'ADRESSE DE LIVRAISON',
      'Boutique Lyon Centre',
      'SIREN 552032534',
      'Nature de l',
      'opération mixte',
      "Option pour le paiement de la taxe d’après les débits",
      'Date de livraison ou de prestation',
      'IBAN FR7630006000011234567890189',
      'BIC AGRIFRPP',
      'Escompte pour paiement anticipé : Escompte de 1 %',
      'taux annuel de 12,15 %',
      '40,00 €',
      'Membre d’une association de gestion agréée',
    ]) {
      expect(text).toContain(s);
    }
    const xml = generated.get('facture-multi-taux')!;
    expect(xml).toContain('<ram:ID>M1</ram:ID>');
    expect(xml).toContain('<ram:SubjectCode>PMD</ram:SubjectCode>');
    expect(xml).toContain('<ram:SubjectCode>PMT</ram:SubjectCode>');
    expect(xml).toContain('<ram:SubjectCode>AAB</ram:SubjectCode>');
    expect(xml).toContain('<ram:URIID schemeID="0225">552032534</ram:URIID>');
    expect(xml).toContain('<ram:IBANID>FR7630006000011234567890189</ram:IBANID>');
    expect(xml.match(/<ram:SpecifiedTradeAllowanceCharge>/g)).toHaveLength(2);
  });

  it('0 % documents state their VAT basis', () => {
    expect(texts.get('facture-franchise-e')).toContain('TVA non applicable, art. 293 B du CGI');
    expect(generated.get('facture-franchise-e')).toContain('<ram:ExemptionReasonCode>VATEX-FR-FRANCHISE</ram:ExemptionReasonCode>');
    expect(texts.get('invoice-reverse-charge-en')).toContain('Reverse charge');
    expect(texts.get('invoice-reverse-charge-en')).toContain('INVOICE');
    expect(texts.get('invoice-reverse-charge-en')).toContain('Germany');
    expect(generated.get('invoice-reverse-charge-en')).toContain('<ram:ExemptionReasonCode>VATEX-EU-AE</ram:ExemptionReasonCode>');
    expect(texts.get('facture-intracom-k')).toContain('VAT exempt intra-Community supply, article 138 of Directive 2006/112/EC');
    expect(texts.get('facture-export-g')).toContain('VAT exempt export outside the EU');
    expect(texts.get('facture-hors-champ-o')).toContain("hors du champ d’application de la TVA");
    expect(generated.get('facture-hors-champ-o')).not.toContain('schemeID="VA"');
  });

  it('a consumer invoice has no €40 indemnity and says B2C', () => {
    expect(texts.get('facture-particulier')).not.toContain('Indemnité forfaitaire pour frais de recouvrement due');
    expect(texts.get('facture-particulier')).toContain('client non professionnel');
    expect(generated.get('facture-particulier')).toContain('<ram:Content>B2C</ram:Content>');
  });

  it('deposit, final invoice and credit notes reference what they belong to', () => {
    const quote = models.get('devis')!;
    const deposit = models.get('acompte')!;
    expect(generated.get('acompte')).toContain('<ram:TypeCode>386</ram:TypeCode>');
    expect(texts.get('acompte')).toContain(`sur le devis ${quote.number}`);

    const final = generated.get('facture-finale')!;
    expect(final).toContain('<ram:ID>M4</ram:ID>');
    expect(final).toContain(`<ram:IssuerAssignedID>${deposit.number}</ram:IssuerAssignedID>`);
    expect(texts.get('facture-finale')).toContain('ACOMPTES DÉDUITS');
    expect(texts.get('facture-finale')).toContain(`Déduction de l’acompte ${deposit.number}`);

    const invoice = models.get('facture-multi-taux')!;
    const partial = generated.get('avoir-partiel')!;
    expect(partial).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(partial).toContain(`<ram:IssuerAssignedID>${invoice.number}</ram:IssuerAssignedID>`);
    expect(partial).toContain(`<qdt:DateTimeString format="102">${invoice.issue_date.replaceAll('-', '')}</qdt:DateTimeString>`);
    expect(texts.get('avoir-partiel')).toContain(`Avoir sur la facture ${invoice.number}`);
    expect(texts.get('avoir-partiel')).toContain('geste commercial — Retard de chantier');
    expect(texts.get('credit-note-cancellation-en')).toContain('CREDIT NOTE');
    expect(texts.get('credit-note-cancellation-en')).toContain('cancellation');
  });

  it('prints the option for VAT on debits exactly when the XML carries BT-8 = 5: services taxed on debits only', () => {
    const OPTION = "Option pour le paiement de la taxe d’après les débits";
    for (const name of E_INVOICES) {
      const m = models.get(name)!;
      const xml = generated.get(name)!;
      const printed = texts.get(name)!.includes(OPTION) || texts.get(name)!.includes('VAT payable on an accrual basis');
      expect(printed, `${name}: printed`).toBe(xml.includes('<ram:DueDateTypeCode>5</ram:DueDateTypeCode>'));
      expect(printed, `${name}: decided by vatOnDebits`).toBe(vatOnDebits(m));
      if (m.operation_nature === 'biens') expect(xml, `${name}: goods have no BT-8`).not.toContain('<ram:DueDateTypeCode>');
    }
    for (const name of ['facture-biens-debits', 'avoir-biens-debits']) {
      expect(models.get(name)!.vat_exigibility).toBe('debits');
      expect(texts.get(name)).not.toContain(OPTION);
      expect(generated.get(name)).not.toContain('<ram:DueDateTypeCode>');
    }
    expect(texts.get('facture-services-debits')).toContain(OPTION);
    expect(generated.get('facture-services-debits')).toContain('<ram:DueDateTypeCode>5</ram:DueDateTypeCode>');
  });

  it('prints payment terms that agree with the due date, in the PDF and in BT-20', () => {
    for (const name of ['acompte', 'acompte-conditions']) {
      const m = models.get(name)!;
      expect(m.due_date, name).toBe(m.issue_date);
      // Issue 34: the stored terms are the printed ones, not the quote's « 30 jours ».
      expect(m.payment_terms, `${name}: the printed terms are stored`).toBe('Payable à réception');
      expect(texts.get(name), name).toContain('Conditions de paiement : Payable à réception');
      expect(texts.get(name), name).not.toContain('30 jours');
      const xml = generated.get(name)!;
      expect(xml).toContain('<ram:Description>Payable à réception</ram:Description>');
      expect(xml).toMatch(new RegExp(`<ram:DueDateDateTime>\\s*<udt:DateTimeString format="102">${m.issue_date.replaceAll('-', '')}</udt:DateTimeString>`));
    }
    const services = models.get('facture-services-debits')!;
    expect(services.due_date).toBe(addDays(services.issue_date, 45));
    expect(texts.get('facture-services-debits')).toContain('Conditions de paiement : 45 jours');
    expect(generated.get('facture-services-debits')).toContain('<ram:Description>45 jours</ram:Description>');
  });

  it('prints emoji, symbols, Chinese, Japanese, Greek and Cyrillic with embedded fonts only, and stays PDF/A-3', () => {
    const pdf = pdfs.get('facture-unicode')!;
    expect(pdf.qpdfOk, pdf.qpdfOutput).toBe(true);
    expect(pdf.fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(pdf.fonts.map((f) => f.name).join(' ')).not.toMatch(/Helvetica/);
    const families = pdf.fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, ''));
    expect(families).toEqual(expect.arrayContaining(['LiberationSans', 'NotoEmoji-Regular', 'NotoSansSC-Regular']));
    expect(xmpValue(pdf.xmp, 'pdfaid:part')).toBe('3');
    const text = texts.get('facture-unicode')!;
    for (const word of UNICODE_SAMPLE.split(' ')) expect(text, word).toContain(word);
    expect(text).toContain('日本語のテキスト');
    // Hangul has no embedded font: replaced, never set in a non-embedded one; the XML keeps what was typed.
    expect(text).not.toContain('한국어');
    expect(text).toContain(`Merci ${UNICODE_SAMPLE} 👍`);
    expect(text).toMatch(/❤\S* \?\?\?/);
    expect(generated.get('facture-unicode')).toContain(`<ram:Name>${UNICODE_SAMPLE}</ram:Name>`);
    expect(generated.get('facture-unicode')).toContain('한국어');
    // Documents without such characters embed Liberation Sans alone.
    for (const name of ['facture-multi-taux', 'devis']) {
      expect(pdfs.get(name)!.fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).every((f) => f.startsWith('LiberationSans')), name).toBe(true);
    }
  });

  it("a consumer without e-mail gets the seller's electronic address as BT-49 (BR-FR-12)", () => {
    const m = models.get('facture-particulier-sans-email')!;
    expect(m.buyer.email).toBeNull();
    const buyer = /<ram:BuyerTradeParty>[\s\S]*?<\/ram:BuyerTradeParty>/.exec(generated.get('facture-particulier-sans-email')!)![0];
    expect(buyer).toContain('<ram:URIID schemeID="0225">732829320</ram:URIID>');
    expect(generated.get('facture-particulier-sans-email')).toContain('<ram:Content>B2C</ram:Content>');
    // With an e-mail, the consumer's own.
    expect(generated.get('facture-particulier')).toContain('<ram:URIID schemeID="EM">camille.martin@example.fr</ram:URIID>');
  });

  it('a credit note of a deposit invoice is typed 503 and references the deposit; other credit notes 381', () => {
    const deposit = models.get('acompte-conditions')!;
    const xml = generated.get('avoir-acompte')!;
    expect(xml).toContain('<ram:TypeCode>503</ram:TypeCode>');
    expect(xml).toContain(`<ram:IssuerAssignedID>${deposit.number}</ram:IssuerAssignedID>`);
    expect(texts.get('avoir-acompte')).toContain(`Avoir sur la facture d’acompte ${deposit.number}`);
    for (const name of ['avoir-partiel', 'credit-note-cancellation-en', 'avoir-biens-debits']) expect(generated.get(name), name).toContain('<ram:TypeCode>381</ram:TypeCode>');
  });

  it('records each stored file: key, size, SHA-256, Factur-X profile and the SHA-256 of its XML', async () => {
    for (const [name, id] of Object.entries(docs)) {
      const [render] = await db().select().from(documentRenders).where(eq(documentRenders.document_id, id));
      const [doc] = await db().select().from(documents).where(eq(documents.id, id));
      expect(render!.status).toBe('ready');
      expect(render!.storage_key).toMatch(new RegExp(`^documents/${doc!.org_id}/${id}/[0-9a-f-]{36}\\.pdf$`));
      expect(render!.size).toBe((await readFile(path.join(dir, `${name}.pdf`))).length);
      expect(render!.attempts).toBe(1);
      const xml = generated.get(name);
      expect(render!.facturx_profile).toBe(xml ? 'EN 16931' : null);
      expect(render!.xml_sha256).toBe(xml ? sha256Hex(Buffer.from(xml, 'utf8')) : null);
    }
  });
});
