import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import * as collection from '@/app/v1/signature/envelopes/route';
import * as originalRoute from '@/app/v1/signature/envelopes/[id]/document/route';
import * as attachedOne from '@/app/v1/signature/envelopes/[id]/documents/[document_id]/route';
import * as attachedRoute from '@/app/v1/signature/envelopes/[id]/documents/route';
import * as fieldsRoute from '@/app/v1/signature/envelopes/[id]/fields/route';
import * as proofRoute from '@/app/v1/signature/envelopes/[id]/proof/route';
import * as requestedRoute from '@/app/v1/signature/envelopes/[id]/requested-documents/route';
import * as signedRoute from '@/app/v1/signature/envelopes/[id]/signed/route';
import { signatureFields } from '@/db/schema';
import { LocalStorage, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { sendEnvelope } from './lifecycle';

let dir = '';
let org: TestOrg;
let other: TestOrg;
const uploaded = new Map<string, Uint8Array>();
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-evidence-'));
  setStorage(new LocalStorage(dir));
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function upload(o: TestOrg, pages = 2, name = 'contrat.pdf') {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) doc.addPage([595, 842]).drawText(`${name} page ${i + 1}`, { x: 50, y: 780 });
  const bytes = await doc.save();
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), name);
  const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await o.key()}` }, body: form });
  const body = await (await uploadRoute.POST(req, { params: Promise.resolve({}) })).json();
  uploaded.set(body.id, bytes);
  return body.id as string;
}

async function draft(o: TestOrg = org) {
  const documentId = await upload(o);
  const res = await call(collection.POST, 'POST', '/v1/signature/envelopes', {
    token: await o.key(),
    body: {
      source_kind: 'document',
      source_document_id: documentId,
      signers: [
        { email: 'alice@exemple.fr', routing_order: 0 },
        { email: 'bob@exemple.fr', routing_order: 1 },
      ],
    },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, documentId, alice: res.body.signers[0].id as string, bob: res.body.signers[1].id as string };
}

type Handler = Parameters<typeof call>[0];
const api = async (handler: Handler, method: string, sub: string, id: string, options: { body?: unknown; o?: TestOrg; token?: string; params?: Record<string, string> } = {}) =>
  call(handler, method, `/v1/signature/envelopes/${id}/${sub}`, {
    token: options.token ?? (await (options.o ?? org).key()),
    params: { id, ...options.params },
    body: options.body,
  });

const field = (signerId: string, extra: Record<string, unknown> = {}) => ({ signer_id: signerId, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.1, ...extra });

describe('GET/PUT …/fields', () => {
  it('replaces the fields of a draft and lists them in order, with the defaults', async () => {
    const e = await draft();
    const put = await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, {
      body: { fields: [field(e.alice), field(e.bob, { type: 'text', page: 2, label: 'Fonction', required: false, x: 0, y: 0, width: 1, height: 1 })] },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject([
      { signer_id: e.alice, type: 'signature', page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.1, required: true, label: null, origin: 'api', value: null, filled_at: null },
      { signer_id: e.bob, type: 'text', page: 2, required: false, label: 'Fonction' },
    ]);
    const get = await api(fieldsRoute.GET, 'GET', 'fields', e.id);
    expect(get).toMatchObject({ status: 200, body: { data: put.body.data } });
    // Replaced whole: an empty list clears them.
    expect((await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [] } })).body).toEqual({ data: [] });
    expect((await api(fieldsRoute.GET, 'GET', 'fields', e.id)).body).toEqual({ data: [] });
  });

  it('refuses each bad field with 422 and its path', async () => {
    const e = await draft();
    const elsewhere = await draft();
    const cases: Array<[Record<string, unknown>, string]> = [
      [field(elsewhere.alice), 'fields.1.signer_id'],
      [field(e.alice, { page: 3 }), 'fields.1.page'],
      [field(e.alice, { page: 0 }), 'fields.1.page'],
      [field(e.alice, { x: 0.8, width: 0.3 }), 'fields.1.width'],
      [field(e.alice, { y: 0.95, height: 0.1 }), 'fields.1.height'],
      [field(e.alice, { x: -0.1 }), 'fields.1.x'],
      [field(e.alice, { width: 0 }), 'fields.1.width'],
      [field(e.alice, { type: 'stamp' }), 'fields.1.type'],
      [field(e.alice, { colour: 'red' }), 'fields.1.colour'],
      [{ type: 'date', page: 1, x: 0, y: 0, width: 0.1, height: 0.1 }, 'fields.1.signer_id'],
    ];
    for (const [bad, path] of cases) {
      const res = await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [field(e.alice), bad] } });
      expect(res.status, path).toBe(422);
      expect(res.body.field, JSON.stringify(res.body)).toBe(path);
    }
    // Nothing was kept by a refused request.
    expect((await api(fieldsRoute.GET, 'GET', 'fields', e.id)).body.data).toEqual([]);
  });

  it('keeps a text tag’s field a tag when its id is sent back; an id twice is refused', async () => {
    const e = await draft();
    const [tag] = await org.db
      .insert(signatureFields)
      .values({ org_id: org.org.id, envelope_id: e.id, signer_id: e.alice, position: 0, type: 'date', page: 1, x: 0.5, y: 0.5, width: 0.2, height: 0.05, origin: 'tag' })
      .returning();
    const put = await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [{ ...field(e.alice), id: tag!.id, type: 'date' }, field(e.bob)] } });
    expect(put.body.data).toMatchObject([{ id: tag!.id, origin: 'tag', x: 0.1 }, { origin: 'api' }]);
    const twice = await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [{ ...field(e.alice), id: tag!.id }, { ...field(e.bob), id: tag!.id }] } });
    expect(twice).toMatchObject({ status: 422, body: { field: 'fields.1.id' } });
    expect((await org.db.select().from(signatureFields).where(eq(signatureFields.envelope_id, e.id))).length).toBe(2);
  });
});

describe('GET/PUT …/requested-documents', () => {
  it('replaces the list of a draft; each for a signer of the envelope', async () => {
    const e = await draft();
    const body = { requested_documents: [{ signer_id: e.bob, label: 'Pièce d’identité', description: 'Recto verso' }, { signer_id: e.alice, label: 'RIB', required: false }] };
    const put = await api(requestedRoute.PUT, 'PUT', 'requested-documents', e.id, { body });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject([
      { signer_id: e.bob, label: 'Pièce d’identité', description: 'Recto verso', required: true },
      { signer_id: e.alice, label: 'RIB', description: null, required: false },
    ]);
    expect((await api(requestedRoute.GET, 'GET', 'requested-documents', e.id)).body).toEqual(put.body);
    const stranger = await api(requestedRoute.PUT, 'PUT', 'requested-documents', e.id, { body: { requested_documents: [{ signer_id: (await draft()).alice, label: 'RIB' }] } });
    expect(stranger).toMatchObject({ status: 422, body: { field: 'requested_documents.0.signer_id' } });
    const blank = await api(requestedRoute.PUT, 'PUT', 'requested-documents', e.id, { body: { requested_documents: [{ signer_id: e.bob, label: '  ' }] } });
    expect(blank).toMatchObject({ status: 422, body: { field: 'requested_documents.0.label' } });
  });
});

describe('…/documents (attached while draft)', () => {
  it('attaches an uploaded PDF once, lists it, detaches it', async () => {
    const e = await draft();
    const annex = await upload(org, 1, 'annexe.pdf');
    const posted = await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: annex } });
    expect(posted).toMatchObject({ status: 201, body: { id: annex, name: 'annexe.pdf', page_count: 1, position: 0, sha256: sha256Hex(uploaded.get(annex)!) } });
    expect((await api(attachedRoute.GET, 'GET', 'documents', e.id)).body).toEqual({ data: [posted.body] });
    expect(await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: annex } })).toMatchObject({ status: 409, body: { code: 'signature_conflict' } });
    // The document signed itself, another org's upload, not a uuid.
    expect(await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: e.documentId } })).toMatchObject({ status: 422, body: { field: 'document_id' } });
    expect(await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: await upload(other) } })).toMatchObject({ status: 422, body: { field: 'document_id' } });
    expect(await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: 'x' } })).toMatchObject({ status: 422, body: { field: 'document_id' } });
    expect((await api(attachedOne.DELETE, 'DELETE', `documents/${annex}`, e.id, { params: { document_id: annex } })).status).toBe(204);
    expect((await api(attachedRoute.GET, 'GET', 'documents', e.id)).body).toEqual({ data: [] });
    expect((await api(attachedOne.DELETE, 'DELETE', `documents/${annex}`, e.id, { params: { document_id: annex } })).status).toBe(404);
  });
});

describe('downloads', () => {
  it('GET …/document is the original PDF with its SHA-256 as ETag (304 on If-None-Match); signed and proof are 409 before the end', async () => {
    const e = await draft();
    const sha = sha256Hex(uploaded.get(e.documentId)!);
    const res = await originalRoute.GET(new Request(`http://localhost:3000/v1/signature/envelopes/${e.id}/document`, { headers: { authorization: `Bearer ${await org.key()}` } }), {
      params: Promise.resolve({ id: e.id }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${sha}"`);
    expect(sha256Hex(new Uint8Array(await res.arrayBuffer()))).toBe(sha);
    const again = await originalRoute.GET(
      new Request(`http://localhost:3000/v1/signature/envelopes/${e.id}/document`, { headers: { authorization: `Bearer ${await org.key()}`, 'if-none-match': `"${sha}"` } }),
      { params: Promise.resolve({ id: e.id }) },
    );
    expect(again.status).toBe(304);
    expect(await api(signedRoute.GET, 'GET', 'signed', e.id)).toMatchObject({ status: 409, body: { code: 'signed_document_unavailable' } });
    expect(await api(proofRoute.GET, 'GET', 'proof', e.id)).toMatchObject({ status: 409, body: { code: 'proof_unavailable' } });
  });
});

describe('once sent', () => {
  it('fields, requested documents and attachments no longer change: 409 envelope_not_draft; reading still works', async () => {
    const e = await draft();
    const annex = await upload(org, 1, 'annexe.pdf');
    await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: annex } });
    await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [field(e.alice)] } });
    await sendEnvelope(org.db, org.org.id, e.id, { ip: '198.51.100.1', user_agent: 'vitest' });
    const refused = [
      await api(fieldsRoute.PUT, 'PUT', 'fields', e.id, { body: { fields: [] } }),
      await api(requestedRoute.PUT, 'PUT', 'requested-documents', e.id, { body: { requested_documents: [] } }),
      await api(attachedRoute.POST, 'POST', 'documents', e.id, { body: { document_id: await upload(org) } }),
      await api(attachedOne.DELETE, 'DELETE', `documents/${annex}`, e.id, { params: { document_id: annex } }),
    ];
    for (const res of refused) expect(res).toMatchObject({ status: 409, body: { code: 'envelope_not_draft' } });
    expect((await api(fieldsRoute.GET, 'GET', 'fields', e.id)).body.data).toHaveLength(1);
    expect((await api(attachedRoute.GET, 'GET', 'documents', e.id)).body.data).toHaveLength(1);
    expect(await api(signedRoute.GET, 'GET', 'signed', e.id)).toMatchObject({ status: 409, body: { code: 'signed_document_unavailable' } });
  });
});

describe('authentication, scopes, org isolation', () => {
  const routes: Array<[string, Handler, string, string, unknown?]> = [
    ['GET fields', fieldsRoute.GET, 'GET', 'fields'],
    ['PUT fields', fieldsRoute.PUT, 'PUT', 'fields', { fields: [] }],
    ['GET requested-documents', requestedRoute.GET, 'GET', 'requested-documents'],
    ['PUT requested-documents', requestedRoute.PUT, 'PUT', 'requested-documents', { requested_documents: [] }],
    ['GET documents', attachedRoute.GET, 'GET', 'documents'],
    ['GET document', originalRoute.GET, 'GET', 'document'],
    ['GET signed', signedRoute.GET, 'GET', 'signed'],
    ['GET proof', proofRoute.GET, 'GET', 'proof'],
  ];

  it('401 without a key, 403 without the scope, 404 for another org’s envelope (every route)', async () => {
    const e = await draft();
    const annex = await upload(other);
    for (const [name, handler, method, sub, body] of routes) {
      const write = method !== 'GET';
      expect((await call(handler, method, `/v1/signature/envelopes/${e.id}/${sub}`, { params: { id: e.id }, body })).status, name).toBe(401);
      const wrongScope = await org.key(write ? ['signature:read'] : ['invoice:read']);
      expect((await api(handler, method, sub, e.id, { token: wrongScope, body })).status, name).toBe(403);
      expect((await api(handler, method, sub, e.id, { o: other, body })).status, name).toBe(404);
    }
    expect((await api(attachedRoute.POST, 'POST', 'documents', e.id, { o: other, body: { document_id: annex } })).status).toBe(404);
    expect((await api(attachedRoute.POST, 'POST', 'documents', e.id, { token: await org.key(['signature:read']), body: { document_id: annex } })).status).toBe(403);
    expect((await api(attachedOne.DELETE, 'DELETE', `documents/${annex}`, e.id, { o: other, params: { document_id: annex } })).status).toBe(404);
    expect((await api(attachedOne.DELETE, 'DELETE', `documents/${annex}`, e.id, { token: await org.key(['signature:read']), params: { document_id: annex } })).status).toBe(403);
    // The other org's writes changed nothing.
    expect((await api(fieldsRoute.GET, 'GET', 'fields', e.id)).body).toEqual({ data: [] });
  });
});
