import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { loadRenderModel, type RenderModel } from './model';
import { renderBounded } from './render-bounded';
import { renderDocument } from './render-document';

/** The file without the raw creation time react-pdf leaves in it: only the moment of the render may differ. */
const timeless = (pdf: Uint8Array) => Buffer.from(pdf).toString('latin1').replace(/\(D:\d{14}Z\)/g, '(D:--------------Z)');

let org: TestOrg;
let short: RenderModel;
let many: RenderModel;

beforeAll(async () => {
  org = await createTestOrg();
  const api = await billingContext(org);
  const contact = await api.contact({ email: 'compta@client.fr' });
  const issued = async (count: number) => {
    const items = Array.from({ length: count }, (_, i) => line(`Prestation ${i + 1}`, '1', 10_000 + i, '20'));
    return loadRenderModel(org.db, org.org.id, (await api.issued({ type: 'facture', contact_id: contact.id, operation_nature: 'services', items })).id);
  };
  short = await issued(2);
  // Past LARGE_AFTER_LINES (60): rendered by the worker with the larger heap.
  many = await issued(61);
}, 180_000);

describe('renderBounded (a sandbox worker thread with a capped heap)', () => {
  it('renders the same file as renderDocument on this thread, with its Factur-X XML', async () => {
    const [inWorker, here] = [await renderBounded(short), await renderDocument(short)];
    expect(inWorker.fileName).toBe(here.fileName);
    expect(inWorker.xml).toBe(here.xml);
    expect(inWorker.profile).toBe('EN 16931');
    expect(inWorker.pdf).toBeInstanceOf(Uint8Array);
    expect(timeless(inWorker.pdf) === timeless(here.pdf)).toBe(true);
  });

  it('a document of many lines goes to the larger worker and renders whole', async () => {
    const inWorker = await renderBounded(many);
    expect((await PDFDocument.load(inWorker.pdf)).getPageCount()).toBeGreaterThan(2);
    expect(timeless(inWorker.pdf) === timeless((await renderDocument(many)).pdf)).toBe(true);
  });
});
