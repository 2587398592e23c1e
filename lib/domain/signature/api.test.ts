import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import * as templateOne from '@/app/v1/signature/templates/[id]/route';
import * as templateCollection from '@/app/v1/signature/templates/route';
import { signatureDocuments } from '@/db/schema';
import { getStorage, LocalStorage, readAll, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { MAX_PDF_BYTES } from './schemas';

let dir = '';
let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-signature-'));
  setStorage(new LocalStorage(dir));
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function pdf(pages = 2): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) doc.addPage([595, 842]).drawText(`Contrat page ${i + 1}`, { x: 50, y: 780 });
  return doc.save({ useObjectStreams: false });
}

/** A PDF whose trailer names an /Encrypt dictionary (RC4 40-bit, as `qpdf --encrypt` writes one), as a protected file does. */
async function encryptedPdf(): Promise<Uint8Array> {
  const text = Buffer.from(await pdf(1)).toString('latin1');
  const o = '<'.concat('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', '>');
  const encrypted = text.replace('trailer\n<<', `trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O ${o} /U ${o} /P -44 >>`);
  if (encrypted === text) throw new Error('no trailer found');
  return Buffer.from(encrypted, 'latin1');
}

async function upload(token: string | undefined, file: Blob | null, name = 'contrat.pdf', extra?: (form: FormData) => void) {
  const form = new FormData();
  if (file) form.set('file', file, name);
  extra?.(form);
  const req = new Request('http://localhost:3000/v1/signature/documents', {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}

const blob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)], { type: 'application/pdf' });

describe('POST /v1/signature/documents', () => {
  it('keeps a real PDF: 201 with its page count and SHA-256, the bytes in storage', async () => {
    const bytes = await pdf(3);
    const res = await upload(await org.key(), blob(bytes), 'C:\\Users\\moi\\Contrat de bail.pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Contrat de bail.pdf', byte_size: bytes.byteLength, page_count: 3, sha256: sha256Hex(bytes) });
    expect(Object.keys(res.body).sort()).toEqual(['byte_size', 'created_at', 'id', 'name', 'page_count', 'sha256']);
    const [row] = await org.db
      .select()
      .from(signatureDocuments)
      .where(and(eq(signatureDocuments.id, res.body.id), eq(signatureDocuments.org_id, org.org.id)));
    const stored = await getStorage().get(row!.storage_key);
    expect(sha256Hex(await readAll(stored!.body))).toBe(sha256Hex(bytes));
  });

  it('refuses what is not a PDF (422 invalid_pdf on file), an encrypted PDF (422 pdf_encrypted), and no file (422 on file)', async () => {
    const token = await org.key();
    const text = await upload(token, new Blob(['hello, not a pdf'], { type: 'application/pdf' }));
    expect(text).toMatchObject({ status: 422, body: { code: 'invalid_pdf', field: 'file' } });
    // The header alone is not a PDF.
    const truncated = await upload(token, new Blob(['%PDF-1.7\n1 0 obj\n<<']));
    expect(truncated).toMatchObject({ status: 422, body: { code: 'invalid_pdf', field: 'file' } });
    const locked = await upload(token, blob(await encryptedPdf()));
    expect(locked).toMatchObject({ status: 422, body: { code: 'pdf_encrypted', field: 'file' } });
    expect(await upload(token, null)).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'file' } });
    expect(await upload(token, blob(await pdf()), 'a.pdf', (form) => form.set('title', 'x'))).toMatchObject({ status: 422, body: { field: 'title' } });
    const none = await upload(token, null, '', (form) => form.set('file', 'a string, not a file'));
    expect(none).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'file' } });
    expect(await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, org.org.id))).toHaveLength(1);
  });

  it('refuses more than 20 MB (413) and a JSON body (415)', async () => {
    const token = await org.key();
    const big = new Uint8Array(MAX_PDF_BYTES + 1);
    big.set(Buffer.from('%PDF-1.7\n'));
    expect(await upload(token, new Blob([big]))).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    const json = await call(uploadRoute.POST, 'POST', '/v1/signature/documents', { token, body: { file: 'x' } });
    expect(json).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
  });

  it('needs a key (401) with signature:write (403)', async () => {
    expect((await upload(undefined, blob(await pdf()))).status).toBe(401);
    expect(await upload(await org.key(['signature:read']), blob(await pdf()))).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });
});

describe('signature templates', () => {
  const create = async (o: TestOrg, body: unknown) => call(templateCollection.POST, 'POST', '/v1/signature/templates', { token: await o.key(), body });
  const get = async (o: TestOrg, id: string) => call(templateOne.GET, 'GET', `/v1/signature/templates/${id}`, { token: await o.key(), params: { id } });
  const remove = async (o: TestOrg, id: string) => call(templateOne.DELETE, 'DELETE', `/v1/signature/templates/${id}`, { token: await o.key(), params: { id } });

  it('creates one with its presets, reads it, lists it newest first, deletes it', async () => {
    const o = await createTestOrg();
    const first = await create(o, { name: 'NDA' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'NDA', subject: null, message: null, labels: [], cc_recipients: [] });
    const second = await create(o, { name: '  Bail  ', subject: 'Votre bail', message: 'Merci de signer.', labels: ['rh', 'rh', 'bail'], cc_recipients: ['Juriste@Exemple.fr'] });
    expect(second.body).toMatchObject({ name: 'Bail', subject: 'Votre bail', labels: ['rh', 'bail'], cc_recipients: ['juriste@exemple.fr'] });
    expect((await get(o, second.body.id)).body).toEqual(second.body);

    const page1 = await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token: await o.key(), query: { limit: 1 } });
    expect(page1.body.data.map((t: { id: string }) => t.id)).toEqual([second.body.id]);
    const page2 = await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token: await o.key(), query: { limit: 1, cursor: page1.body.meta.next_cursor } });
    expect(page2.body).toMatchObject({ data: [{ id: first.body.id }], meta: { next_cursor: null } });

    expect((await remove(o, first.body.id)).status).toBe(204);
    expect((await get(o, first.body.id)).status).toBe(404);
    expect((await remove(o, first.body.id)).status).toBe(404);
  });

  it('refuses a blank name, a malformed copy address, an unknown field, a bad limit or cursor (422 with the field)', async () => {
    expect(await create(org, { name: '   ' })).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'name' } });
    expect(await create(org, {})).toMatchObject({ status: 422, body: { field: 'name' } });
    expect(await create(org, { name: 'x', cc_recipients: ['nope'] })).toMatchObject({ status: 422, body: { field: 'cc_recipients.0' } });
    expect(await create(org, { name: 'x', labels: 'rh' })).toMatchObject({ status: 422, body: { field: 'labels' } });
    expect((await create(org, { name: 'x', routing_mode: 'parallel' })).status).toBe(422);
    const token = await org.key();
    expect((await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token, query: { limit: 0 } })).body).toMatchObject({ field: 'limit' });
    expect((await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token, query: { cursor: 'forged' } })).body).toMatchObject({ code: 'invalid_cursor' });
  });

  it("keeps each org's templates to itself: another org's id is 404, and its list is its own", async () => {
    const mine = await create(org, { name: 'Privé' });
    expect((await get(other, mine.body.id)).status).toBe(404);
    expect((await remove(other, mine.body.id)).status).toBe(404);
    expect((await get(org, mine.body.id)).status).toBe(200);
    const theirs = await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token: await other.key() });
    expect(theirs.body.data.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    expect((await get(org, 'not-a-uuid')).status).toBe(404);
  });

  it('needs signature:read to read and signature:write to write', async () => {
    const mine = await create(org, { name: 'Scopes' });
    const reader = await org.key(['signature:read']);
    const writer = await org.key(['invoice:write']);
    expect((await call(templateOne.GET, 'GET', `/v1/signature/templates/${mine.body.id}`, { token: reader, params: { id: mine.body.id } })).status).toBe(200);
    expect((await call(templateCollection.POST, 'POST', '/v1/signature/templates', { token: reader, body: { name: 'x' } })).status).toBe(403);
    expect((await call(templateOne.DELETE, 'DELETE', `/v1/signature/templates/${mine.body.id}`, { token: reader, params: { id: mine.body.id } })).status).toBe(403);
    expect((await call(templateCollection.GET, 'GET', '/v1/signature/templates', { token: writer })).status).toBe(403);
    expect((await call(templateCollection.GET, 'GET', '/v1/signature/templates')).status).toBe(401);
  });
});
