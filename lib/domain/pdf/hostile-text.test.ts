import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type billingContext, line, routes as billingRoutes } from '@/lib/domain/documents/testing';
import { pdfText } from '@/lib/domain/einvoicing/parse/testing';
import { updateOrgIdentity } from '@/lib/platform/orgs';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { renderToBuffer, Document, Page, Text } from '@react-pdf/renderer';
import { createElement } from 'react';
import { FONT_STACK, printableText } from './fonts';
import { loadRenderModel } from './model';
import { renderDocument } from './render-document';
import { renderStoredDocument } from './render-stored-document';
import { completeSeller, fontsOf, HOSTILE_TEXT, LONG_WORD, notdefShown, pdfRoutes } from './testing';

/**
 * Issue 34: a document whose every free-text field holds characters outside the embedded fonts is still a PDF/A-3 —
 * every glyph from an embedded font (react-pdf sets in its own, non-embedded Helvetica any character no family of
 * the stack has, a line break or a tab included).
 */
let dir: string;
let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
const ids: Record<string, string> = {};
const hostile = (label: string) => `${label} ${HOSTILE_TEXT}`;
/** The same, cut to a field's length (a city: 100), by code points. */
const hostileShort = (label: string) => [...hostile(label)].slice(0, 90).join('');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-hostile-'));
  setStorage(new LocalStorage(path.join(dir, 'storage')));
  org = await createTestOrg();
  api = await completeSeller(org);
  // A document without a line break rendered first, as a process's earlier documents are: writing its fonts makes
  // fontkit's missing-glyph object before any line feed does (the order of the files in a full run decided the outcome).
  const plainClient = await api.contact({ email: 'achats@client.fr' });
  const plain = await api.draft({ type: 'facture', contact_id: plainClient.id, operation_nature: 'services', items: [line('Conseil', '1', 10_000, '20')] });
  expect(await notdefShown((await renderDocument(await loadRenderModel(org.db, org.org.id, plain.id))).pdf)).toBe(0);
  // The seller's identity (the header, the footer's legal mentions), keeping the identifiers valid.
  await updateOrgIdentity(org.db, org.org.id, {
    name: hostile('Org'),
    legal_name: hostile('Raison sociale'),
    legal_form: 'SAS',
    share_capital_cents: 1_000_000,
    siren: '732829320',
    siret: '73282932000074',
    vat_number: 'FR44732829320',
    rcs: hostile('RCS'),
    address: hostile('Adresse'),
    postal_code: '75002',
    city: hostileShort('Ville'),
    country: 'FR',
    email: 'facturation@atelier-paraphe.fr',
    phone: '01 23 45 67 89',
  });
  const settings = await call(billingRoutes.putSettings, 'PUT', '/v1/invoice/settings', {
    token: api.token,
    body: { footer_mentions: hostile('Mentions'), default_payment_terms: hostile('Selon échéancier') },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
  const contact = await api.contact({ company: hostile('Client'), address: hostile('Rue'), city: hostileShort('Lyon'), email: 'compta@client.fr' });
  const texts = {
    title: hostile('Titre'),
    description: `${hostile('Description')} ${LONG_WORD}`,
    notes: `${hostile('Notes')}\n\n${LONG_WORD}`,
    payment_terms: hostile('Selon échéancier'),
    discount_terms: hostile('Escompte'),
    delivery_address: { name: hostile('Livraison'), address: hostile('Quai'), postal_code: '69002', city: hostileShort('Lyon'), country: 'FR' },
  };
  const items = [
    line(hostile('Ligne'), '1', 10_000, '20', { details: `${hostile('Détails')} ${LONG_WORD}` }),
    line(hostile('Remise'), '-1', 1_000, '20'),
  ];
  const invoice = await api.draft({ type: 'facture', contact_id: contact.id, operation_nature: 'services', ...texts, items });
  ids.draft = invoice.id;
  ids.facture = (await api.issued({ type: 'facture', contact_id: contact.id, operation_nature: 'services', ...texts, items })).id;
  ids.devis = (await api.issued({ type: 'devis', contact_id: contact.id, operation_nature: 'services', ...texts, execution_timeline: hostile('Délai'), items })).id;
  const credit = api.expectStatus(
    await api.creditNote(ids.facture!, { credit_reason_code: 'commercial_gesture', credit_reason_text: hostile('Motif'), items: [line(hostile('Geste'), '1', 1_000, '20')] }),
    201,
    'credit note',
  );
  ids.avoir = api.expectStatus(await api.finalize(credit.id), 200, 'finalize credit note').id;
}, 180_000);

afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a document with characters outside the embedded fonts in every text field', () => {
  it.each(['facture', 'devis', 'avoir', 'draft'])('%s: every font of the PDF is embedded, none is Helvetica', async (name) => {
    const { pdf } = await renderDocument(await loadRenderModel(org.db, org.org.id, ids[name]!));
    if (process.env.PDF_TEST_KEEP) await writeFile(path.join(tmpdir(), `hostile-${name}.pdf`), pdf);
    const fonts = await fontsOf(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.map((f) => f.name).join(' ')).not.toMatch(/Helvetica/);
    // Nor a missing glyph: what no font has was replaced before the layout.
    expect(await notdefShown(pdf)).toBe(0);
    const text = await pdfText(pdf);
    // What the fonts have is printed; what none has is the visible placeholder; a tab is a space.
    expect(text).toContain('中文 日本語 ??? ???????');
    expect(text).toContain('Tab inside and');
    expect(text).toContain('∑ √ ≠');
  });

  it('the finalized invoice as the API serves it (the stored PDF/A-3) embeds every font', async () => {
    expect(await renderStoredDocument(org.db, org.org.id, ids.facture!)).toBe('ready');
    const res = await pdfRoutes.pdf(new Request(`http://localhost/v1/invoices/${ids.facture}/pdf`, { headers: { authorization: `Bearer ${api.token}` } }), {
      params: Promise.resolve({ id: ids.facture! }),
    });
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect((await fontsOf(pdf)).filter((f) => !f.embedded)).toEqual([]);
    expect(await notdefShown(pdf)).toBe(0);
  });

  it('a text that names no family, or a character no font has that bypassed printable, is set in embedded Liberation Sans', async () => {
    await printableText(''); // the fonts loaded, as every render does before its layout
    const page = (children: ReturnType<typeof createElement>[]) =>
      renderToBuffer(createElement(Document, null, createElement(Page, null, ...children)) as Parameters<typeof renderToBuffer>[0]);
    const pdf = new Uint8Array(
      await page([
        createElement(Text, null, 'Sans famille\tni\nretouche'),
        createElement(Text, { style: { fontWeight: 'bold', fontStyle: 'italic' } }, 'Gras italique'),
        createElement(Text, { style: { fontFamily: FONT_STACK } }, 'Arabe العربية'),
      ]),
    );
    const fonts = await fontsOf(pdf);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    expect(fonts.map((f) => f.name.replace(/^[A-Z]{6}\+/, '')).sort()).toEqual(['LiberationSans', 'LiberationSans-Italic']);
    // Unreplaced, the tab and the Arabic letters are missing glyphs: printable is what keeps them out (above).
    expect(await notdefShown(pdf)).toBeGreaterThan(0);
  });

  it('printableText: tabs become spaces, line breaks are line feeds, other controls and separators are replaced', async () => {
    expect(await printableText('a\tb')).toBe('a b');
    expect(await printableText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
    expect(await printableText('a\u2028b\u2029c\u0085d')).toBe('a\nb\nc\nd');
    expect(await printableText('\u00adx')).toBe('x');
    // A lone surrogate (the API refuses one; a received invoice's text cut in the middle of a pair may end with one).
    expect(await printableText('a\ud800b')).toBe('a?b');
    expect(await printableText('a\u0007b\u007fc')).toBe('a?b?c');
  });
});
