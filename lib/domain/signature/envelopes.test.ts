import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as one from '@/app/v1/signature/envelopes/[id]/route';
import * as collection from '@/app/v1/signature/envelopes/route';
import * as templates from '@/app/v1/signature/templates/route';
import { signatureDocuments, signatureEnvelopes, signatureSigners } from '@/db/schema';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { verifyAuditChain } from './audit';

let org: TestOrg;
let other: TestOrg;
let documentId: string;

/** A stored PDF row (the upload path is api.test.ts's concern). */
async function pdfRow(o: TestOrg) {
  const [row] = await o.db
    .insert(signatureDocuments)
    .values({ org_id: o.org.id, name: 'contrat.pdf', storage_key: `signature/${o.org.id}/documents/x.pdf`, sha256: 'a'.repeat(64), page_count: 2, byte_size: 1234 })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org);
});

const create = async (o: TestOrg, body: unknown, headers?: Record<string, string>) =>
  call(collection.POST, 'POST', '/v1/signature/envelopes', { token: await o.key(), body, headers });
const get = async (o: TestOrg, id: string) => call(one.GET, 'GET', `/v1/signature/envelopes/${id}`, { token: await o.key(), params: { id } });
const list = async (o: TestOrg, query: Record<string, string | number> = {}) => call(collection.GET, 'GET', '/v1/signature/envelopes', { token: await o.key(), query });
const remove = async (o: TestOrg, id: string) => call(one.DELETE, 'DELETE', `/v1/signature/envelopes/${id}`, { token: await o.key(), params: { id } });

const base = () => ({
  source_kind: 'document',
  source_document_id: documentId,
  signers: [
    { email: 'Alice@Exemple.fr', full_name: 'Alice Martin', routing_order: 0 },
    { email: 'bob@exemple.fr', phone: '+33612345678', verification_method: 'sms_otp', routing_order: 1 },
  ],
});

describe('POST /v1/signature/envelopes', () => {
  it('creates a draft with its signers in order, the spec defaults, and envelope.created first in a valid chain', async () => {
    const res = await create(org, { ...base(), subject: 'Votre contrat', labels: ['rh'] }, { 'user-agent': 'vitest-agent', 'x-forwarded-for': '203.0.113.9' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      source_kind: 'document',
      source_document_id: documentId,
      routing_mode: 'sequential',
      assurance_level: 'simple',
      subject: 'Votre contrat',
      labels: ['rh'],
      cc_recipients: [],
      expires_at: null,
      document_hash: null,
      has_proof: false,
      has_signed_document: false,
      reminder_count: 0,
      reminder_max_count: 1,
      reminder_interval_hours: null,
    });
    expect(res.body.signers).toMatchObject([
      { email: 'alice@exemple.fr', full_name: 'Alice Martin', routing_order: 0, verification_method: 'email_otp', status: 'waiting', otp_attempts: 0, phone: null },
      { email: 'bob@exemple.fr', phone: '+33612345678', routing_order: 1, verification_method: 'sms_otp', status: 'waiting' },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/token_hash|code_hash|ciphertext/);
    const full = await get(org, res.body.id);
    expect(full.body.audit_chain).toHaveLength(1);
    expect(full.body.audit_chain[0]).toMatchObject({ seq_index: 0, event_type: 'envelope.created', prev_hash: null, signer_id: null });
    expect(full.body.audit_chain[0].event_data).toMatchObject({ user_agent: 'vitest-agent', source_kind: 'document', signers: [{ email: 'alice@exemple.fr' }, { email: 'bob@exemple.fr' }] });
    expect(await verifyAuditChain(org.db, res.body.id)).toMatchObject({ ok: true, count: 1 });
  });

  it('fills what the request omits from a template; parallel routing puts every signer at order 0', async () => {
    const tpl = await call(templates.POST, 'POST', '/v1/signature/templates', {
      token: await org.key(),
      body: { name: 'Bail', subject: 'Bail à signer', message: 'Bonjour', labels: ['bail'], cc_recipients: ['agence@exemple.fr'] },
    });
    const res = await create(org, { ...base(), template_id: tpl.body.id, message: 'Le mien', routing_mode: 'parallel' });
    expect(res.body).toMatchObject({ subject: 'Bail à signer', message: 'Le mien', labels: ['bail'], cc_recipients: ['agence@exemple.fr'], routing_mode: 'parallel' });
    expect(res.body.signers.map((s: { routing_order: number }) => s.routing_order)).toEqual([0, 0]);
  });

  it('wraps a finalized quote of the org (its contact is the envelope’s), never a draft one', async () => {
    const api = await billingContext(org);
    const client = await api.contact();
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('Prestation', '1', 100000)] });
    const res = await create(org, { ...base(), source_kind: 'devis', source_document_id: quote.id });
    expect(res.status).toBe(201);
    const [row] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, res.body.id));
    expect(row!.contact_id).toBe(client.id);
    expect((await list(org, { contact_id: client.id })).body.data.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
    const draft = api.expectStatus(await api.create({ type: 'devis', contact_id: client.id, items: [line('X', '1', 100)] }), 201, 'draft');
    expect(await create(org, { ...base(), source_kind: 'devis', source_document_id: draft.id })).toMatchObject({ status: 422, body: { field: 'source_document_id' } });
    expect(await create(org, { ...base(), source_kind: 'facture', source_document_id: quote.id })).toMatchObject({ status: 422, body: { field: 'source_document_id' } });
  });

  it('refuses with the field: no signer, sms_otp without phone, none at advanced, a bad e-mail, an unknown or foreign document or template', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...base(), signers: [] }, 'signers'],
      [{ ...base(), signers: [{ email: 'a@b.fr', verification_method: 'sms_otp' }] }, 'signers.0.phone'],
      [{ ...base(), signers: [{ email: 'a@b.fr', phone: '0612345678', verification_method: 'sms_otp' }] }, 'signers.0.phone'],
      [{ ...base(), assurance_level: 'advanced', signers: [{ email: 'a@b.fr' }, { email: 'c@d.fr', verification_method: 'none' }] }, 'signers.1.verification_method'],
      [{ ...base(), signers: [{ email: 'nope' }] }, 'signers.0.email'],
      [{ ...base(), source_document_id: crypto.randomUUID() }, 'source_document_id'],
      [{ ...base(), source_document_id: await pdfRow(other) }, 'source_document_id'],
      [{ ...base(), template_id: crypto.randomUUID() }, 'template_id'],
      [{ ...base(), source_kind: 'avoir' }, 'source_kind'],
      [{ ...base(), reminder_max_count: -1 }, 'reminder_max_count'],
      [{ ...base(), expires_at: 'demain' }, 'expires_at'],
      [{ ...base(), status: 'sent' }, 'status'],
    ];
    for (const [body, field] of cases) expect(await create(org, body), field).toMatchObject({ status: 422, body: { code: 'validation_error', field } });
  });
});

describe('GET and DELETE /v1/signature/envelopes', () => {
  it('lists newest first without signers, with every filter and the cursor', async () => {
    const o = await createTestOrg();
    const doc = await pdfRow(o);
    const mk = async (body: Record<string, unknown>) => (await create(o, { source_kind: 'document', source_document_id: doc, signers: [{ email: 'x@exemple.fr' }], ...body })).body;
    const a = await mk({ subject: 'Contrat de travail', labels: ['rh'] });
    const b = await mk({ signers: [{ email: 'paul.durand@client.fr' }], labels: ['vente'] });
    const c = await mk({ subject: '100% prêt' });
    await o.db.update(signatureEnvelopes).set({ status: 'sent' }).where(eq(signatureEnvelopes.id, c.id));
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((e) => e.id);
    const all = await list(o);
    expect(ids(all)).toEqual([c.id, b.id, a.id]);
    expect(all.body.data[0]).not.toHaveProperty('signers');
    expect(all.body.data[0]).not.toHaveProperty('audit_chain');
    expect(ids(await list(o, { q: 'travail' }))).toEqual([a.id]);
    expect(ids(await list(o, { q: 'DURAND@' }))).toEqual([b.id]);
    expect(ids(await list(o, { q: '100%' }))).toEqual([c.id]);
    expect(ids(await list(o, { label: 'vente' }))).toEqual([b.id]);
    expect(ids(await list(o, { status: 'sent' }))).toEqual([c.id]);
    expect(ids(await list(o, { source_document_id: doc, limit: 2 }))).toEqual([c.id, b.id]);
    const page1 = await list(o, { limit: 2 });
    expect(ids(await list(o, { limit: 2, cursor: page1.body.meta.next_cursor }))).toEqual([a.id]);
    expect(await list(o, { limit: 101 })).toMatchObject({ status: 422, body: { field: 'limit' } });
    expect(await list(o, { status: 'done' })).toMatchObject({ status: 422, body: { field: 'status' } });
    expect(await list(o, { cursor: 'forged' })).toMatchObject({ status: 422, body: { code: 'invalid_cursor' } });
    expect(ids(await list(other))).not.toContain(a.id);
  });

  it('deletes a draft with its signers (204), refuses a sent one (409 envelope_not_draft), and hides another org’s (404)', async () => {
    const draft = (await create(org, base())).body;
    expect((await remove(other, draft.id)).status).toBe(404);
    expect((await get(other, draft.id)).status).toBe(404);
    expect((await remove(org, draft.id)).status).toBe(204);
    expect((await get(org, draft.id)).status).toBe(404);
    expect(await org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, draft.id))).toEqual([]);
    const sent = (await create(org, base())).body;
    await org.db.update(signatureEnvelopes).set({ status: 'sent' }).where(eq(signatureEnvelopes.id, sent.id));
    expect(await remove(org, sent.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_draft' } });
    expect((await get(org, sent.id)).body.status).toBe('sent');
  });

  it('needs signature:read to read and signature:write to create or delete', async () => {
    const reader = await org.key(['signature:read']);
    const env = (await create(org, base())).body;
    expect((await call(collection.POST, 'POST', '/v1/signature/envelopes', { token: reader, body: base() })).status).toBe(403);
    expect((await call(one.DELETE, 'DELETE', `/v1/signature/envelopes/${env.id}`, { token: reader, params: { id: env.id } })).status).toBe(403);
    expect((await call(one.GET, 'GET', `/v1/signature/envelopes/${env.id}`, { token: reader, params: { id: env.id } })).status).toBe(200);
    expect((await call(collection.GET, 'GET', '/v1/signature/envelopes', { token: await org.key(['contacts:read']) })).status).toBe(403);
    expect((await call(collection.GET, 'GET', '/v1/signature/envelopes')).status).toBe(401);
  });
});
