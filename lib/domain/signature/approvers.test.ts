import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { verifyAuditChain } from './audit';
import { envelopeApi, mailsTo, pdfRow, staffMember } from './testing';

let org: TestOrg;
let other: TestOrg;
let documentId: string;
let api: ReturnType<typeof envelopeApi>;
let alice: Awaited<ReturnType<typeof staffMember>>;
let bruno: Awaited<ReturnType<typeof staffMember>>;
let outsider: Awaited<ReturnType<typeof staffMember>>;

beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org);
  api = envelopeApi(org);
  alice = await staffMember(org, 'alice');
  bruno = await staffMember(org, 'bruno');
  outsider = await staffMember(other, 'outsider');
});

async function draft() {
  const res = await api.create({ source_kind: 'document', source_document_id: documentId, subject: 'Avenant', signers: [{ email: 'client@exemple.fr' }] });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('approvers', () => {
  it('adds an org member (e-mailed the back-office link), lists, refuses a non-member (422) and a second time (409 signature_conflict)', async () => {
    const env = await draft();
    const res = await api.addApprover(env.id, { user_id: alice.user.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), user_id: alice.user.id, approved_at: null });
    const [mail] = await mailsTo(org, alice.user.email);
    expect(mail).toMatchObject({ template: 'signature_approval_requested', language: 'fr', subject: 'Approbation demandée : Avenant' });
    expect(mail!.text).toContain(`/signature/${env.id}`);
    expect(await api.addApprover(env.id, { user_id: alice.user.id })).toMatchObject({ status: 409, body: { code: 'signature_conflict', field: 'user_id' } });
    expect(await api.addApprover(env.id, { user_id: outsider.user.id })).toMatchObject({ status: 422, body: { field: 'user_id' } });
    expect(await api.addApprover(env.id, {})).toMatchObject({ status: 422, body: { field: 'user_id' } });
    // A comptable reads only: refused as approver, nothing written.
    const comptable = await staffMember(org, 'comptable', 'accountant');
    const refused = await api.addApprover(env.id, { user_id: comptable.user.id });
    expect(refused).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'user_id' } });
    expect(refused.body.message).toContain('accountant');
    expect((await envelopeApi(other).addApprover(env.id, { user_id: alice.user.id })).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).addApprover(env.id, { user_id: bruno.user.id })).status).toBe(403);
    await api.addApprover(env.id, { user_id: bruno.user.id });
    const list = await envelopeApi(org, ['signature:read']).approvers(env.id);
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { user_id: string }) => a.user_id)).toEqual([alice.user.id, bruno.user.id]);
    expect((await envelopeApi(other).approvers(env.id)).status).toBe(404);
  });

  it('blocks send while an approver has not approved (409 approval_pending); approval by session or by key naming the user', async () => {
    const env = await draft();
    const a = (await api.addApprover(env.id, { user_id: alice.user.id })).body;
    await api.addApprover(env.id, { user_id: bruno.user.id });
    expect(await api.send(env.id)).toMatchObject({ status: 409, body: { code: 'approval_pending' } });

    // An API key has no user: it names the approver.
    expect(await api.approve(env.id)).toMatchObject({ status: 422, body: { field: 'user_id' } });
    expect(await api.approve(env.id, { user_id: outsider.user.id })).toMatchObject({ status: 422, body: { field: 'user_id' } });
    const byKey = await api.approve(env.id, { user_id: alice.user.id });
    expect(byKey.status).toBe(200);
    expect(byKey.body).toMatchObject({ id: a.id, user_id: alice.user.id, approved_at: expect.any(String) });
    // Again: the same approval, no second event.
    expect((await api.approve(env.id, { user_id: alice.user.id })).body.approved_at).toBe(byKey.body.approved_at);
    expect(await api.send(env.id)).toMatchObject({ status: 409, body: { code: 'approval_pending' } });

    // A staff member approves for themselves only.
    expect(await api.approve(env.id, { user_id: alice.user.id }, bruno.headers)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const bySession = await api.approve(env.id, undefined, bruno.headers);
    expect(bySession.status, JSON.stringify(bySession.body)).toBe(200);
    expect(bySession.body).toMatchObject({ user_id: bruno.user.id, approved_at: expect.any(String) });

    const chain = (await api.timeline(env.id)).body.data.filter((e: { event_type: string }) => e.event_type === 'envelope.approved');
    expect(chain.map((e: { event_data: { approver_user_id: string } }) => e.event_data.approver_user_id)).toEqual([alice.user.id, bruno.user.id]);
    expect(chain[1].event_data).toMatchObject({ user_id: bruno.user.id, api_key_id: null });
    expect((await api.send(env.id)).status).toBe(200);
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true });

    // Once sent, approvers no longer change.
    expect(await api.approve(env.id, { user_id: alice.user.id })).toMatchObject({ status: 409, body: { code: 'envelope_not_draft' } });
    expect(await api.addApprover(env.id, { user_id: alice.user.id })).toMatchObject({ status: 409, body: { code: 'signature_conflict' } });
    expect(await api.removeApprover(env.id, a.id)).toMatchObject({ status: 409, body: { code: 'signature_conflict' } });
  });

  it('removes an approver of a draft (then send is no longer blocked); 404 for an unknown one or another org', async () => {
    const env = await draft();
    const a = (await api.addApprover(env.id, { user_id: alice.user.id })).body;
    expect((await envelopeApi(other).removeApprover(env.id, a.id)).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).removeApprover(env.id, a.id)).status).toBe(403);
    expect((await api.removeApprover(env.id, a.id)).status).toBe(204);
    expect((await api.removeApprover(env.id, a.id)).status).toBe(404);
    expect((await api.approvers(env.id)).body.data).toEqual([]);
    expect((await api.send(env.id)).status).toBe(200);
  });
});
