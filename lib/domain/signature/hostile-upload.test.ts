import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import { signatureDocuments } from '@/db/schema';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { slowestHealthzWhile } from '@/lib/testing/responsiveness';
import { MAX_PDF_PAGES } from './upload-inspection';

// Files that kept the server's only thread busy for tens of seconds when the upload read them there (issue 33).

let dir = '';
let org: TestOrg;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-hostile-upload-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg();
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function upload(bytes: Uint8Array) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'hostile.pdf');
  const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await org.key()}` }, body: form });
  const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}

/** The upload's answer, and the slowest /healthz meanwhile. */
async function probe(bytes: Uint8Array) {
  const answer = upload(bytes);
  const slowest = await slowestHealthzWhile(answer);
  return { ...(await answer), slowest };
}

async function pages(n: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage([200, 200]);
  return doc.save();
}

describe('hostile uploads are read off the request thread, and refused with a 422', () => {
  it('3 MB of random bytes after %PDF-: 422 on file, the server serving meanwhile', async () => {
    const res = await probe(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3_000_000), Buffer.from('\n%%EOF\n')]));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ field: 'file', code: expect.stringMatching(/^(invalid_pdf|pdf_too_complex)$/) });
    expect(res.slowest).toBeLessThan(1_000);
  }, 60_000);

  it('junk after %PDF- (no page tree) is 422 invalid_pdf, not a 500', async () => {
    const res = await probe(Buffer.from('%PDF-1.4\nthis is no pdf at all\n%%EOF\n'));
    expect(res).toMatchObject({ status: 422, body: { code: 'invalid_pdf', field: 'file' } });
  }, 60_000);

  it(`2,000 tiny pages: 422 pdf_too_complex naming the limit (${MAX_PDF_PAGES}), nothing stored, the server serving meanwhile`, async () => {
    const bytes = await pages(2_000);
    expect(bytes.byteLength).toBeLessThan(1_000_000);
    const res = await probe(bytes);
    expect(res).toMatchObject({ status: 422, body: { code: 'pdf_too_complex', field: 'file' } });
    expect(res.body.message).toContain(`at most ${MAX_PDF_PAGES}`);
    expect(res.slowest).toBeLessThan(1_000);
    expect(await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, org.org.id))).toEqual([]);
  }, 60_000);

  it(`a document at the limit (${MAX_PDF_PAGES} pages) is kept`, async () => {
    const res = await probe(await pages(MAX_PDF_PAGES));
    expect(res).toMatchObject({ status: 201, body: { page_count: MAX_PDF_PAGES } });
    expect(res.slowest).toBeLessThan(1_000);
  }, 60_000);
});
