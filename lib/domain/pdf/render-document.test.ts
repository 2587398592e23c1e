import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { renderToBuffer } from '@react-pdf/renderer';
import { PDFDocument } from 'pdf-lib';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { buildFacturX } from '@/lib/domain/facturx';
import { toPdfA3 } from './pdfa';
import { missingValidators } from '@/lib/domain/facturx/testing';
import { printable, registerFonts } from './fonts';
import { LABELS } from './i18n';
import { loadRenderModel, type RenderModel } from './model';
import { pdfA3Options, renderDocument } from './render-document';
import { InvoiceDocument } from './template';

const run = promisify(execFile);
// pdftotext comes with pdfinfo and pdfdetach (poppler-utils), as render.test.ts assumes.
const hasPoppler = !missingValidators().some((m) => m === 'pdfdetach' || m === 'pdfinfo');

let org: TestOrg;
let dir: string;
let short: RenderModel;
let long: RenderModel;

/** The file as it was made before renderDocument's one-page layout: the template with its page-number render props. */
async function withRenderProps(m: RenderModel): Promise<Uint8Array> {
  registerFonts();
  const raw = await renderToBuffer(createElement(InvoiceDocument, { model: await printable(m) }) as Parameters<typeof renderToBuffer>[0]);
  return toPdfA3(raw, pdfA3Options(m, buildFacturX(m)));
}

/**
 * The file without the raw creation time react-pdf leaves in it (an orphan object once toPdfA3 sets the dates), the
 * same length: only the moment of the render may differ.
 */
const timeless = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').replace(/\(D:\d{14}Z\)/g, '(D:--------------Z)');

/** The text of each page (poppler's pdftotext, form feed between pages), whitespace collapsed. */
async function pagesOf(pdf: Uint8Array): Promise<string[]> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return stdout
    .split('\f')
    .filter((page) => page.trim())
    .map((page) => page.replace(/\s+/g, ' '));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-render-document-'));
  org = await createTestOrg();
  const api = await billingContext(org);
  const contact = await api.contact({ email: 'compta@client.fr' });
  const issued = async (count: number) => {
    const items = Array.from({ length: count }, (_, i) => line(`Prestation ${i + 1}`, '1', 10_000 + i, '20', { details: 'Détail de la prestation, sur plusieurs mots. '.repeat(3) }));
    return loadRenderModel(org.db, org.org.id, (await api.issued({ type: 'facture', contact_id: contact.id, operation_nature: 'services', items })).id);
  };
  short = await issued(2);
  long = await issued(30);
  // Two finalizations through the e-invoice validation: seconds each on a loaded machine.
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderDocument', () => {
  it('a one-page document, laid out without the page-number render props, is the same file byte for byte', async () => {
    const pdf = await renderDocument(short);
    expect((await PDFDocument.load(pdf.pdf)).getPageCount()).toBe(1);
    expect(timeless(pdf.pdf) === timeless(await withRenderProps(short))).toBe(true);
  });

  it('a longer document is laid out again with them: the same file, numbered pages, the running head from page 2 on', async () => {
    const pdf = await renderDocument(long);
    const pages = (await PDFDocument.load(pdf.pdf)).getPageCount();
    expect(pages).toBeGreaterThan(1);
    expect(timeless(pdf.pdf) === timeless(await withRenderProps(long))).toBe(true);
    if (!hasPoppler) return;
    const texts = await pagesOf(pdf.pdf);
    expect(texts).toHaveLength(pages);
    const head = `${LABELS.fr.kind.facture} — ${long.number}`;
    texts.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} / ${pages}`);
      // The footer says kind and number on every page; the running head says them again from page 2 on.
      expect(text.split(head).length - 1, `page ${i + 1}`).toBe(i === 0 ? 1 : 2);
    });
  });
});
