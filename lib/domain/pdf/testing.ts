import { deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import * as pdfRoute from '@/app/v1/invoices/[id]/pdf/route';
import * as previewRoute from '@/app/v1/invoices/[id]/preview/route';
import * as renderRoute from '@/app/v1/invoices/[id]/render/route';
import { documents } from '@/db/schema';
import { billingContext, line, routes as billingRoutes } from '@/lib/domain/documents/testing';
import { setOrgLogo, updateOrgIdentity } from '@/lib/platform/orgs';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** The PDF route handlers, for tests. */
export const pdfRoutes = { render: renderRoute.POST, pdf: pdfRoute.GET, preview: previewRoute.GET };

/** A small two-colour PNG logo as a data URL (what Settings → Organisation stores). */
export function logoDataUrl(width = 120, height = 40): string {
  const row = Buffer.from([0, ...Array.from({ length: width }, (_, x) => (x < width / 2 ? [31, 78, 121] : [200, 120, 40])).flat()]);
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The seller as a French accountant expects it on an invoice: full legal identity, bank details, penalties, logo. */
export async function completeSeller(org: TestOrg) {
  await updateOrgIdentity(org.db, org.org.id, {
    name: 'Atelier Paraphe',
    legal_name: 'Atelier Paraphe SAS',
    legal_form: 'SAS',
    share_capital_cents: 1_000_000,
    siren: '732829320',
    siret: '73282932000074',
    vat_number: 'FR44732829320',
    rcs: 'RCS Paris 732 829 320',
    address: '12 rue de la Paix',
    postal_code: '75002',
    city: 'Paris',
    country: 'FR',
    email: 'facturation@atelier-paraphe.fr',
    phone: '01 23 45 67 89',
  });
  await setOrgLogo(org.db, org.org.id, logoDataUrl());
  const api = await billingContext(org);
  const res = await call(billingRoutes.putSettings, 'PUT', '/v1/invoice/settings', {
    token: api.token,
    body: {
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'AGRIFRPP',
      penalty_rate: '12.15',
      default_payment_terms: '30 jours',
      footer_mentions: 'Membre d’une association de gestion agréée, le règlement par chèque est accepté.',
    },
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${JSON.stringify(res.body)}`);
  return api;
}

type Api = Awaited<ReturnType<typeof billingContext>>;

/**
 * One finalized document of every kind the renderer must get right, through the API: several VAT rates with
 * discounts and a delivery address, each 0 % basis (E franchise, Z, AE reverse charge in English, K intra-EU
 * goods, G export, O out of scope), a consumer, a quote, its deposit, the final invoice deducting it, a
 * partial credit note and a cancellation's full credit note. Returns name → document id.
 */
export async function documentsOfEveryKind(org: TestOrg, api: Api): Promise<Record<string, string>> {
  const business = await api.contact({ email: 'compta@client-sarl.fr' });
  const german = await api.contact({
    company: 'Kunde GmbH',
    email: 'buchhaltung@kunde.de',
    address: 'Hauptstrasse 1',
    postal_code: '10115',
    city: 'Berlin',
    country: 'DE',
    siret: null,
    vat_intra: 'DE123456789',
    preferred_language: 'en',
  });
  const american = await api.contact({ company: 'Customer Inc.', email: 'ap@customer.com', address: '1 Main Street', postal_code: '10001', city: 'New York', country: 'US', siret: null, preferred_language: 'en' });
  const consumer = await api.contact({ type: 'particulier', company: null, siret: null, first_name: 'Camille', last_name: 'Martin', email: 'camille.martin@example.fr', address: '3 place du Marché', postal_code: '33000', city: 'Bordeaux' });

  const issued = async (body: Record<string, unknown>) => (await api.issued(body)).id as string;
  const docs: Record<string, string> = {};

  docs['facture-multi-taux'] = await issued({
    type: 'facture',
    contact_id: business.id,
    title: 'Rénovation de la boutique',
    description: 'Travaux et fournitures selon devis.',
    operation_nature: 'mixte',
    service_date: '2026-01-15',
    payment_method: 'bank_transfer',
    discount_terms: 'Escompte de 1 % pour paiement sous 8 jours',
    delivery_address: { name: 'Boutique Lyon Centre', address: '8 rue de la République', postal_code: '69002', city: 'Lyon', country: 'FR' },
    notes: 'Merci pour votre confiance.',
    items: [
      line('Main-d’œuvre', '12.5', 4500, '20', { unit: 'HUR', details: 'Pose et finitions' }),
      line('Peinture', '3', 8990, '20', { unit: 'LTR' }),
      line('Remise fidélité', '-1', 2500, '20'),
      line('Travaux d’amélioration énergétique', '1', 120000, '5.5', { unit: 'C62' }),
      line('Travaux de rénovation', '1', 85000, '10'),
      line('Remise chantier', '-1', 5000, '10'),
      line('Abonnement presse professionnelle', '1', 4900, '2.1'),
    ],
  });
  docs['facture-franchise-e'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'services',
    items: [line('Formation bureautique', '2', 35000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-FRANCHISE', unit: 'DAY' })],
  });
  docs['facture-taux-zero-z'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'biens',
    items: [line('Fournitures', '4', 1250, '20', { unit: 'H87' }), line('Produit à taux zéro', '1', 3000, '0', { vat_category: 'Z' })],
  });
  docs['invoice-reverse-charge-en'] = await issued({
    type: 'facture',
    contact_id: german.id,
    operation_nature: 'services',
    payment_terms: 'Net 30',
    payment_method: 'bank_transfer',
    items: [line('Consulting', '3', 80000, '0', { vat_category: 'AE', unit: 'DAY' }), line('Travel expenses', '1', 42000, '0', { vat_category: 'AE' })],
  });
  docs['facture-intracom-k'] = await issued({
    type: 'facture',
    contact_id: german.id,
    operation_nature: 'biens',
    items: [line('Machine outil', '1', 1250000, '0', { vat_category: 'K', unit: 'H87' })],
  });
  docs['facture-export-g'] = await issued({
    type: 'facture',
    contact_id: american.id,
    operation_nature: 'biens',
    payment_method: 'card',
    items: [line('Export shipment', '10', 15000, '0', { vat_category: 'G', unit: 'H87' })],
  });
  docs['facture-hors-champ-o'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'services',
    payment_method: 'cheque',
    items: [line('Refacturation de débours', '1', 15000, '0', { vat_category: 'O' })],
  });
  docs['facture-particulier'] = await issued({
    type: 'facture',
    contact_id: consumer.id,
    operation_nature: 'biens',
    items: [line('Table en chêne', '1', 89000, '20', { unit: 'H87' }), line('Livraison', '1', 4000, '20')],
  });

  // Quote → deposit → final invoice deducting the deposit.
  docs.devis = await issued({
    type: 'devis',
    contact_id: business.id,
    title: 'Aménagement des bureaux',
    operation_nature: 'mixte',
    deposit_request_percentage: '30',
    execution_timeline: '6 semaines à compter de l’acceptation',
    payment_method: 'bank_transfer',
    items: [
      line('Mobilier', '6', 45000, '20', { unit: 'H87' }),
      line('Installation', '16', 5500, '20', { unit: 'HUR' }),
      line('Documentation technique', '2', 3000, '5.5'),
    ],
  });
  const deposit = api.expectStatus(await api.deposit(docs.devis, { percentage: '30' }), 201, 'deposit');
  docs.acompte = api.expectStatus(await api.finalize(deposit.id), 200, 'finalize deposit').id;
  const converted = api.expectStatus(await api.convert(docs.devis), 201, 'convert');
  docs['facture-finale'] = api.expectStatus(await api.finalize(converted.id), 200, 'finalize final invoice').id;

  // A partial credit note on the multi-rate invoice, and the full one a cancellation issues.
  const credit = api.expectStatus(
    await api.creditNote(docs['facture-multi-taux']!, {
      credit_reason_code: 'commercial_gesture',
      credit_reason_text: 'Retard de chantier',
      items: [line('Geste commercial sur main-d’œuvre', '1', 10000, '20'), line('Geste commercial sur travaux', '1', 5000, '10')],
    }),
    201,
    'credit note',
  );
  docs['avoir-partiel'] = api.expectStatus(await api.finalize(credit.id), 200, 'finalize credit note').id;
  const cancelled = await issued({
    type: 'facture',
    contact_id: german.id,
    operation_nature: 'services',
    items: [line('Workshop', '1', 150000, '0', { vat_category: 'AE' })],
  });
  api.expectStatus(await api.cancel(cancelled), 200, 'cancel');
  const [creditNote] = await org.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.org_id, org.org.id), eq(documents.avoir_for_id, cancelled)));
  docs['credit-note-cancellation-en'] = creditNote!.id;
  return docs;
}

/** The text of issue 12's Unicode document: emoji, a check mark, Chinese, Japanese, Greek and Cyrillic. */
export const UNICODE_SAMPLE = '💡 ✓ 中文 日本語 Ελληνικά Кириллица';

/**
 * The documents of issue 12's defects, finalized through the API (name → id): a goods-only invoice of a seller
 * taxed on debits and its credit note (no débits mention, no BT-8), a services invoice taxed on debits (both), a
 * deposit invoice whose quote says "30 jours" (due at issue: "Payable à réception"), a document in every script
 * users type, a consumer without e-mail (BT-49), and the credit note of a deposit invoice (BT-3 503).
 */
export async function documentsOfIssue12(api: Api): Promise<Record<string, string>> {
  const business = await api.contact({ email: 'achats@client-sarl.fr' });
  const consumer = await api.contact({ type: 'particulier', company: null, siret: null, first_name: 'Léa', last_name: 'Dubois', email: null, address: '5 rue Neuve', postal_code: '44000', city: 'Nantes' });
  const issued = async (body: Record<string, unknown>) => (await api.issued(body)).id as string;
  const docs: Record<string, string> = {};

  docs['facture-biens-debits'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'biens',
    vat_exigibility: 'debits',
    items: [line('Chaises empilables', '12', 4500, '20', { unit: 'H87' })],
  });
  const credit = api.expectStatus(
    await api.creditNote(docs['facture-biens-debits']!, { credit_reason_code: 'return', items: [line('Retour de deux chaises', '2', 4500, '20', { unit: 'H87' })] }),
    201,
    'credit note',
  );
  docs['avoir-biens-debits'] = api.expectStatus(await api.finalize(credit.id), 200, 'finalize credit note').id;
  docs['facture-services-debits'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'services',
    vat_exigibility: 'debits',
    payment_terms: '45 jours',
    items: [line('Audit de sécurité', '3', 70000, '20', { unit: 'DAY' })],
  });
  docs['facture-unicode'] = await issued({
    type: 'facture',
    contact_id: business.id,
    operation_nature: 'services',
    title: `Idées ${UNICODE_SAMPLE}`,
    notes: `Merci ${UNICODE_SAMPLE} 👍🏽 ❤️ 한국어`,
    items: [line(UNICODE_SAMPLE, '1', 10000, '20', { details: '日本語のテキスト — ✓ vérifié ★' })],
  });
  docs['facture-particulier-sans-email'] = await issued({
    type: 'facture',
    contact_id: consumer.id,
    operation_nature: 'biens',
    items: [line('Lampe de bureau', '1', 6500, '20', { unit: 'H87' })],
  });

  const quote = await issued({
    type: 'devis',
    contact_id: business.id,
    operation_nature: 'services',
    payment_terms: '30 jours',
    items: [line('Développement', '10', 60000, '20', { unit: 'DAY' })],
  });
  const deposit = api.expectStatus(await api.deposit(quote, { percentage: '40' }), 201, 'deposit');
  docs['acompte-conditions'] = api.expectStatus(await api.finalize(deposit.id), 200, 'finalize deposit').id;
  const depositCredit = api.expectStatus(await api.creditNote(docs['acompte-conditions']!, { credit_reason_code: 'cancellation' }), 201, 'deposit credit note');
  docs['avoir-acompte'] = api.expectStatus(await api.finalize(depositCredit.id), 200, 'finalize deposit credit note').id;
  return docs;
}

/**
 * What an auditor types into every free-text field (issue 34): emoji and their sequences, CJK and Hangul, Arabic and
 * Hebrew, mathematical symbols and arrows, box drawing, combining marks, invisible joiners, private-use characters,
 * U+FFFD, the separators, tabs and every kind of line break (the API refuses a lone surrogate; hostile-text.test.ts gives one to printable). No
 * digits: payment terms stay terms.
 */
export const HOSTILE_TEXT = [
  '😀 👍🏽 👨‍👩‍👧 ❤️ 🇫🇷',
  '中文 日本語 한국어 العربية עברית',
  '∑ √ ≠ ∞ ± × ℝ 𝕏 ⇒ → ↔ ⟶',
  '┌─┐ │ └─┘ ░▓█',
  'e\u0301 a\u0308 q\u0336',
  'a\u200db\u200cc\u2060d\ufeffe\u200bf\u00adg',
  '\ue000\uf8ff \ufffd',
  'Tab\tinside\tand\nLF\r\nCRLF\rCR\u2028LS\u2029PS\u0085NEL',
  '\u202f\u2009\u3000.',
].join(' ');

/** A word longer than any column. */
export const LONG_WORD = 'Anticonstitutionnellement'.repeat(12);

/** A font dictionary of a PDF: its name, and whether its program is in the file (PDF/A wants every one). */
export interface PdfFont {
  name: string;
  subtype: string;
  embedded: boolean;
}

/**
 * Every font of a PDF, read with pdf-lib (no poppler needed): a simple or CID font is embedded when its descriptor has
 * a /FontFile, /FontFile2 or /FontFile3; a composite (Type0) font is its descendant, listed on its own. react-pdf's
 * built-in Helvetica is a Type1 font without a descriptor.
 */
export async function fontsOf(pdf: Uint8Array): Promise<PdfFont[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const fonts: PdfFont[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const subtype = object.lookupMaybe(PDFName.of('Subtype'), PDFName)?.decodeText() ?? '';
    if (subtype === 'Type0' || subtype === 'Type3') continue; // its descendant is listed; a Type3 font draws its glyphs itself
    const descriptor = object.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
    const embedded = !!descriptor && ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor.has(PDFName.of(key)));
    fonts.push({ name: object.lookupMaybe(PDFName.of('BaseFont'), PDFName)?.decodeText() ?? '', subtype, embedded });
  }
  return fonts;
}

/**
 * How many glyphs 0 (.notdef, the "missing glyph" box, which PDF/A forbids showing) the pages show, in fonts with
 * two-byte codes (react-pdf's Identity-H subsets, where glyph 0 is always .notdef).
 */
export async function notdefShown(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  let count = 0;
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const shown of text.matchAll(/\[([^\]]*)\]\s*TJ|(<[0-9a-fA-F]*>)\s*Tj/g)) {
        for (const hex of (shown[1] ?? shown[2]!).matchAll(/<([0-9a-fA-F]*)>/g)) count += (hex[1]!.match(/.{4}/g) ?? []).filter((code) => code === '0000').length;
      }
    }
  }
  return count;
}
