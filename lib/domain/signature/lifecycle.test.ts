import { addDays, parisEndOfDay, todayParis } from '@/lib/platform/dates';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureDocuments, signatureSigners } from '@/db/schema';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { getStorage, LocalStorage, readAll, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { verifyAuditChain } from './audit';
import { envelopeApi, envelopeRow, eventsOfType, lifecycleRoutes, mailsTo, pdfRow, routes, signersOf } from './testing';
import { hashSignerToken } from './tokens';

let dir = '';
let org: TestOrg;
let other: TestOrg;
let documentId: string;
let api: ReturnType<typeof envelopeApi>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-lifecycle-'));
  setStorage(new LocalStorage(dir));
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org, 'c'.repeat(64));
  api = envelopeApi(org);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const signers = (...orders: number[]) => orders.map((routing_order, i) => ({ email: `signer${i}@exemple.fr`, full_name: `Signataire ${i}`, routing_order }));
async function draft(body: Record<string, unknown> = {}) {
  const res = await api.create({ source_kind: 'document', source_document_id: documentId, signers: signers(0, 1), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; signers: Array<{ id: string }> };
}

describe('PATCH /v1/signature/envelopes/{id}', () => {
  it('replaces the signer set and resets every omitted field to its default', async () => {
    const env = await draft({ subject: 'Bail', message: 'Merci', labels: ['rh'], cc_recipients: ['rh@exemple.fr'], reply_to: 'a@exemple.fr', sender_name: 'Jeanne', expires_at: '2099-01-01T00:00:00Z', reminder_interval_hours: 12, reminder_max_count: 3 });
    const res = await api.patch(env.id, { signers: [{ email: 'Neuf@Exemple.fr', routing_order: 4, phone: '+33612345678', verification_method: 'sms_otp' }], subject: 'Nouveau' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'draft',
      subject: 'Nouveau',
      message: null,
      labels: [],
      cc_recipients: [],
      reply_to: null,
      sender_name: null,
      expires_at: null,
      reminder_interval_hours: null,
      reminder_max_count: 1,
    });
    expect(res.body.signers).toMatchObject([{ email: 'neuf@exemple.fr', routing_order: 4, verification_method: 'sms_otp', phone: '+33612345678', status: 'waiting' }]);
    expect(await signersOf(org, env.id)).toHaveLength(1);
    const set = await api.patch(env.id, { signers: signers(0), labels: ['a', 'a'], cc_recipients: ['X@exemple.fr'], expires_at: '2099-02-01T10:00:00+01:00', reminder_max_count: 0 });
    expect(set.body).toMatchObject({ labels: ['a'], cc_recipients: ['x@exemple.fr'], expires_at: '2099-02-01T09:00:00.000Z', reminder_max_count: 0 });
  });

  it('ignores routing_order in parallel routing', async () => {
    const env = await draft({ routing_mode: 'parallel' });
    const res = await api.patch(env.id, { signers: signers(3, 7) });
    expect(res.body.signers.map((s: { routing_order: number }) => s.routing_order)).toEqual([0, 0]);
  });

  it('refuses an invalid payload with its field, a non-draft with 409, another org’s envelope with 404', async () => {
    const env = await draft({ assurance_level: 'advanced' });
    const cases: Array<[unknown, string]> = [
      [{}, 'signers'],
      [{ signers: [] }, 'signers'],
      [{ signers: [{ email: 'x@exemple.fr', verification_method: 'sms_otp' }] }, 'signers.0.phone'],
      [{ signers: [{ email: 'x@exemple.fr', phone: '0612345678', verification_method: 'sms_otp' }] }, 'signers.0.phone'],
      [{ signers: [{ email: 'pas-une-adresse' }] }, 'signers.0.email'],
      [{ signers: signers(0), expires_at: 'demain' }, 'expires_at'],
      [{ signers: signers(0), source_kind: 'devis' }, 'source_kind'],
      [{ signers: signers(0), reminder_max_count: -1 }, 'reminder_max_count'],
      [{ signers: [{ email: 'x@exemple.fr', verification_method: 'none' }] }, 'signers.0.verification_method'],
    ];
    for (const [body, field] of cases) {
      const res = await api.patch(env.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await envelopeApi(other).patch(env.id, { signers: signers(0) })).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).patch(env.id, { signers: signers(0) })).status).toBe(403);
    const sent = await draft();
    expect((await api.send(sent.id)).status).toBe(200);
    expect(await api.patch(sent.id, { signers: signers(0) })).toMatchObject({ status: 409, body: { code: 'envelope_not_draft' } });
  });
});

describe('POST /v1/signature/envelopes/{id}/send', () => {
  it('sends: document hash, default expiry at the end of the Paris day 30 days on, envelope.sent and the first turn in the chain, signature.envelope.sent', async () => {
    const env = await draft({ subject: 'Contrat de bail' });
    const before = Date.now();
    const res = await api.send(env.id, { 'user-agent': 'vitest-send', 'x-forwarded-for': '198.51.100.4' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', document_hash: 'c'.repeat(64) });
    // 23:59:59 in Paris, 30 calendar days after the day of sending — not the hour it was sent at.
    expect(res.body.expires_at).toBe(parisEndOfDay(addDays(todayParis(new Date(before)), 30)));
    expect(new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(new Date(res.body.expires_at))).toBe('23:59');
    // Sequential: only routing_order 0 is notified.
    expect(res.body.signers.map((s: { status: string }) => s.status)).toEqual(['notified', 'waiting']);
    expect(res.body.signers[0].token_expires_at).toBe(res.body.expires_at);
    const stored = await signersOf(org, env.id);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[1]!.token_hash).toBeNull();
    const mail = (await mailsTo(org, 'signer0@exemple.fr')).at(-1);
    expect(mail).toMatchObject({ template: 'signature_request', subject: expect.stringContaining('Contrat de bail') });
    expect((await mailsTo(org, 'signer1@exemple.fr')).filter((m) => m.subject.includes('Contrat de bail'))).toHaveLength(0);

    const chain = (await api.timeline(env.id)).body.data;
    expect(chain.map((e: { event_type: string }) => e.event_type)).toEqual(['envelope.created', 'envelope.sent', 'signer.notified']);
    expect(chain[1].event_data).toMatchObject({ ip: '198.51.100.4', user_agent: 'vitest-send', document_hash: 'c'.repeat(64), signer_count: 2, api_key_id: expect.any(String) });
    expect(chain[2].signer_id).toBe(env.signers[0]!.id);
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true, count: 3 });
    const [event] = (await eventsOfType(org, 'signature.envelope.sent')).filter((e) => (e.payload as { object: { id: string } }).object.id === env.id);
    expect((event!.payload as { object: unknown }).object).toEqual({
      id: env.id,
      envelope_id: env.id,
      status: 'sent',
      source_kind: 'document',
      source_document_id: documentId,
      signer_count: 2,
    });
  });

  it('sends to every signer of a parallel envelope, and to equal orders together', async () => {
    const parallel = await draft({ routing_mode: 'parallel', signers: signers(0, 5, 9) });
    expect((await api.send(parallel.id)).body.signers.map((s: { status: string }) => s.status)).toEqual(['notified', 'notified', 'notified']);
    const equal = await draft({ signers: signers(2, 1, 1) });
    expect((await api.send(equal.id)).body.signers.map((s: { status: string }) => s.status)).toEqual(['waiting', 'notified', 'notified']);
  });

  it('refuses a second send (409), no signer or a past expiry (422), and another org’s envelope (404)', async () => {
    const env = await draft();
    expect((await envelopeApi(other).send(env.id)).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).send(env.id)).status).toBe(403);
    expect((await call(routes.send.POST, 'POST', `/v1/signature/envelopes/${env.id}/send`, { params: { id: env.id } })).status).toBe(401);
    await api.patch(env.id, { signers: signers(0), expires_at: '2020-01-01T00:00:00Z' });
    expect(await api.send(env.id)).toMatchObject({ status: 422, body: { field: 'expires_at' } });
    await org.db.delete(signatureSigners).where(eq(signatureSigners.envelope_id, env.id));
    expect(await api.send(env.id)).toMatchObject({ status: 422, body: { field: 'signers' } });
    await api.patch(env.id, { signers: signers(0) });
    expect((await api.send(env.id)).status).toBe(200);
    expect(await api.send(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_draft' } });
  });

  it('freezes the rendered PDF of a finalized quote: a signature document whose SHA-256 is the document hash', async () => {
    const billing = await billingContext(org);
    const client = await billing.contact({ email: 'client@exemple.fr' });
    const quote = await billing.issued({ type: 'devis', contact_id: client.id, items: [line('Prestation', '1', 100000)] });
    const env = await draft({ source_kind: 'devis', source_document_id: quote.id, signers: signers(0) });
    const res = await api.send(env.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await envelopeRow(org, env.id);
    const [frozen] = await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.id, row.document_id!));
    expect(frozen).toMatchObject({ billing_document_id: quote.id, org_id: org.org.id });
    expect(frozen!.page_count).toBeGreaterThanOrEqual(1);
    const bytes = await readAll((await getStorage().get(frozen!.storage_key))!.body);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.body.document_hash).toBe(sha256Hex(bytes));
    expect(frozen!.sha256).toBe(res.body.document_hash);
    const [mail] = await mailsTo(org, 'signer0@exemple.fr').then((m) => m.filter((e) => e.text.includes(quote.number)));
    expect(mail, 'the request names the quote').toBeDefined();
  });

  it('refuses to send a quote rejected since the draft was made (409 source_not_signable), rendering nothing', async () => {
    const billing = await billingContext(org);
    const client = await billing.contact({ email: 'client2@exemple.fr' });
    const quote = await billing.issued({ type: 'devis', contact_id: client.id, items: [line('Prestation', '1', 100000)] });
    const env = await draft({ source_kind: 'devis', source_document_id: quote.id, signers: signers(0) });
    expect((await billing.reject(quote.id)).status).toBe(200);
    expect(await api.send(env.id)).toMatchObject({ status: 409, body: { code: 'source_not_signable' } });
    expect(await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.billing_document_id, quote.id))).toEqual([]);
    expect((await envelopeRow(org, env.id)).status).toBe('draft');
  });
});

describe('cancel, signer link, timeline', () => {
  it('cancels a sent envelope: links die, envelope.cancelled, signature.envelope.cancelled; 409 for a draft or a second cancel', async () => {
    const env = await draft();
    expect(await api.cancel(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_active' } });
    await api.send(env.id);
    expect((await api.link(env.id, env.signers[0]!.id)).status).toBe(200);
    expect((await envelopeApi(other).cancel(env.id)).status).toBe(404);
    const res = await api.cancel(env.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect((await signersOf(org, env.id)).map((s) => s.token_hash)).toEqual([null, null]);
    expect(await api.link(env.id, env.signers[0]!.id)).toMatchObject({ status: 409, body: { code: 'signer_link_unavailable' } });
    expect((await api.timeline(env.id)).body.data.at(-1).event_type).toBe('envelope.cancelled');
    expect((await eventsOfType(org, 'signature.envelope.cancelled')).map((e) => (e.payload as { object: { id: string; status: string } }).object)).toContainEqual(
      expect.objectContaining({ id: env.id, status: 'cancelled', signer_count: 2 }),
    );
    expect(await api.cancel(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_active' } });
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true });
  });

  it('gives the current link of a signer whose turn it is (the token e-mailed, not a new one); 409 otherwise', async () => {
    const env = await draft();
    expect(await api.link(env.id, env.signers[0]!.id)).toMatchObject({ status: 409, body: { code: 'signer_link_unavailable' } });
    const sent = (await api.send(env.id)).body;
    const res = await api.link(env.id, env.signers[0]!.id);
    expect(res.status).toBe(200);
    const token = res.body.url.split('/sign/')[1];
    expect(res.body.url).toMatch(/^https?:\/\/[^/]+\/sign\/[A-Za-z0-9_-]{43}$/);
    expect(res.body.expires_at).toBe(sent.expires_at);
    const [first] = await signersOf(org, env.id);
    expect(first!.token_hash).toBe(hashSignerToken(token));
    const [mail] = await mailsTo(org, 'signer0@exemple.fr').then((m) => m.filter((e) => e.text.includes(token)));
    expect(mail, 'the link is the one e-mailed').toBeDefined();
    expect((await api.link(env.id, env.signers[0]!.id)).body.url).toBe(res.body.url);
    // The second signer's turn has not come.
    expect(await api.link(env.id, env.signers[1]!.id)).toMatchObject({ status: 409, body: { code: 'signer_link_unavailable' } });
    expect((await api.link(env.id, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await envelopeApi(other).link(env.id, env.signers[0]!.id)).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).link(env.id, env.signers[0]!.id)).status).toBe(403);
  });

  it('answers the timeline oldest first with signature:read; 404 for another org', async () => {
    const env = await draft();
    const res = await envelopeApi(org, ['signature:read']).timeline(env.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject([{ seq_index: 0, event_type: 'envelope.created', prev_hash: null }]);
    expect((await envelopeApi(other).timeline(env.id)).status).toBe(404);
    expect((await envelopeApi(org, ['invoice:read']).timeline(env.id)).status).toBe(403);
  });
});

describe('authentication and scopes', () => {
  it('answers 401 without a key on every lifecycle route, and 403 to a signature:read key on every write', async () => {
    const env = await draft();
    const params = { id: env.id, signer_id: env.signers[0]!.id, approver_id: env.signers[0]!.id };
    const readKey = await org.key(['signature:read']);
    for (const [name, handler, method, write] of lifecycleRoutes) {
      const res = await call(handler, method, `/v1/signature/envelopes/${env.id}/x`, { params, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.status, name).toBe(401);
      if (!write) continue;
      const refused = await call(handler, method, `/v1/signature/envelopes/${env.id}/x`, { token: readKey, params, body: method === 'DELETE' ? undefined : {} });
      expect(refused.status, name).toBe(403);
    }
  });
});
