import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as codeRoute from '@/app/api/sign/[token]/code/route';
import * as verifyRoute from '@/app/api/sign/[token]/code/verify/route';
import * as consentRoute from '@/app/api/sign/[token]/consent/route';
import * as declineRoute from '@/app/api/sign/[token]/decline/route';
import * as stateRoute from '@/app/api/sign/[token]/route';
import * as signRoute from '@/app/api/sign/[token]/sign/route';
import { emails, events, signatureEnvelopes, signatureSigners } from '@/db/schema';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { auditEvents, verifyAuditChain } from './audit';
import { cancelEnvelope } from './lifecycle';
import { emailedCode, sentEnvelope, tokenOf, uploadedPdf } from './testing/signer';
import { issueSignerToken } from './tokens';

let dir = '';
let org: TestOrg;
let documentId: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-sign-flow-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg();
  documentId = await uploadedPdf(org);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const UA = { 'user-agent': 'vitest-flow', 'x-forwarded-for': '203.0.113.20' };
const post = (route: { POST: typeof signRoute.POST }, t: string, suffix: string, body?: unknown) =>
  call(route.POST, 'POST', `/api/sign/${t}/${suffix}`, { params: { token: t }, headers: UA, body });
const state = (t: string) => call(stateRoute.GET, 'GET', `/api/sign/${t}`, { params: { token: t }, headers: UA });

/** Everything a signer does on the page: open, consent, code from the outbox, sign (typed). */
async function signThrough(t: string, email: string) {
  expect((await state(t)).status).toBe(200);
  await post(consentRoute, t, 'consent');
  expect((await post(codeRoute, t, 'code')).status).toBe(202);
  expect((await post(verifyRoute, t, 'code/verify', { code: await emailedCode(org, email) })).status).toBe(200);
  return post(signRoute, t, 'sign', { signature: { kind: 'typed', value: email.split('@')[0] } });
}

const sealJobs = async (envelopeId: string) =>
  ((await org.db.execute(sql`select data from pgboss.job where name = 'signature.seal' and data->>'envelope_id' = ${envelopeId}`)) as unknown as { rows: unknown[] }).rows;
const eventsOf = async (type: string, id: string) =>
  (await org.db.select().from(events).where(and(eq(events.org_id, org.org.id), eq(events.type, type)))).filter((e) => (e.payload as { object: { envelope_id: string } }).object.envelope_id === id);

describe('a two-signer sequential envelope through the API', () => {
  it('the second cannot sign before the first; the first signature opens the second turn; the last completes the envelope', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [
      { email: 'premier@exemple.fr', full_name: 'Paul Premier', routing_order: 1 },
      { email: 'second@exemple.fr', full_name: 'Sarah Second', routing_order: 2 },
    ]);
    const [first, second] = signerIds as [string, string];
    const t1 = (await tokenOf(org, first))!;
    expect(await tokenOf(org, second)).toBeNull();
    // A link handed out early (an integration): the second signer may prepare, not sign.
    const early = await issueSignerToken(org.db, second);
    expect((await state(early)).body.signer).toMatchObject({ status: 'waiting', your_turn: false });
    const refused = await signThrough(early, 'second@exemple.fr');
    expect(refused).toMatchObject({ status: 409, body: { code: 'not_your_turn' } });

    const one = await signThrough(t1, 'premier@exemple.fr');
    expect(one.status).toBe(200);
    expect(one.body.envelope.status).toBe('in_progress');
    const [notified] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, second));
    expect(notified!.status).toBe('notified');
    const [request] = await org.db
      .select()
      .from(emails)
      .where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_request'), sql`'second@exemple.fr' = any(${emails.to})`))
      .orderBy(desc(emails.id))
      .limit(1);
    const t2 = /\/sign\/([A-Za-z0-9_-]{43})$/.exec((request!.template_data as { sign_url: string }).sign_url)![1]!;
    // The turn's new token replaced the early one.
    expect((await state(early)).status).toBe(410);

    const two = await post(signRoute, t2, 'sign', { signature: { kind: 'typed', value: 'Sarah Second' } });
    expect(two.status).toBe(200);
    expect(two.body.envelope.status).toBe('completed');

    const [envelope] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
    expect(envelope).toMatchObject({ status: 'completed' });
    expect(envelope!.completed_at).toBeInstanceOf(Date);
    const signers = await org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId));
    expect(signers.map((s) => [s.status, s.token_hash])).toEqual([
      ['signed', null],
      ['signed', null],
    ]);
    for (const t of [t1, t2]) expect(await state(t)).toMatchObject({ status: 410, body: { code: 'link_expired' } });
    expect(await sealJobs(envelopeId)).toHaveLength(1);
    expect(await eventsOf('signature.envelope.completed', envelopeId)).toHaveLength(1);
    expect(await eventsOf('signature.signer.signed', envelopeId)).toHaveLength(2);

    const report = await verifyAuditChain(org.db, envelopeId);
    expect(report).toMatchObject({ ok: true, first_broken: null });
    const types = (await auditEvents(org.db, envelopeId)).map((e) => e.event_type);
    expect(types[0]).toBe('envelope.created');
    expect(types).toEqual(expect.arrayContaining(['envelope.sent', 'signer.notified', 'signer.opened', 'signer.consent_given', 'signer.code_sent', 'signer.code_verified', 'signer.signed']));
    expect(types.at(-1)).toBe('envelope.completed');
    expect(types.indexOf('signer.signed')).toBeLessThan(types.lastIndexOf('signer.notified'));
  });
});

describe('a parallel envelope', () => {
  it('every signer is notified at once and signs in any order; the last one completes it', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(
      org,
      documentId,
      [
        { email: 'p1@exemple.fr', verification_method: 'none' },
        { email: 'p2@exemple.fr', verification_method: 'none' },
      ],
      { routing_mode: 'parallel' },
    );
    const [t1, t2] = [(await tokenOf(org, signerIds[0]!))!, (await tokenOf(org, signerIds[1]!))!];
    for (const t of [t2, t1]) {
      expect((await state(t)).body.signer.your_turn).toBe(true);
      await post(consentRoute, t, 'consent');
    }
    const second = await post(signRoute, t2, 'sign', { signature: { kind: 'typed', value: 'P Deux' } });
    expect(second.body.envelope.status).toBe('in_progress');
    const first = await post(signRoute, t1, 'sign', { signature: { kind: 'typed', value: 'P Un' } });
    expect(first.body.envelope.status).toBe('completed');
    expect(await sealJobs(envelopeId)).toHaveLength(1);
    expect(await verifyAuditChain(org.db, envelopeId)).toMatchObject({ ok: true });
  });
});

describe('decline and closed envelopes', () => {
  it('410 once the envelope is past its expiry, before the expiry job has run', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'tard@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    await org.db.update(signatureEnvelopes).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(signatureEnvelopes.id, envelopeId));
    expect(await state(t)).toMatchObject({ status: 410, body: { code: 'link_expired' } });
  });

  it('a decline closes the envelope: tokens dead, events, e-mails to the sender and the other notified signer, the proof job', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(
      org,
      documentId,
      [
        { email: 'non@exemple.fr', full_name: 'Noé Non' },
        { email: 'autre@exemple.fr', full_name: 'Ada Autre' },
      ],
      { routing_mode: 'parallel' },
    );
    const t = (await tokenOf(org, signerIds[0]!))!;
    const other = (await tokenOf(org, signerIds[1]!))!;
    expect(await post(declineRoute, t, 'decline', { reason: '  ' })).toMatchObject({ status: 422, body: { field: 'reason' } });
    const res = await post(declineRoute, t, 'decline', { reason: 'Le montant est faux.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ envelope: { status: 'declined' }, signer: { status: 'declined' } });
    const [envelope] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
    expect(envelope!.declined_at).toBeInstanceOf(Date);
    const [decliner] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, signerIds[0]!));
    expect(decliner).toMatchObject({ status: 'declined', decline_reason: 'Le montant est faux.', token_hash: null });
    for (const x of [t, other]) expect((await state(x)).status).toBe(410);
    expect(await eventsOf('signature.signer.declined', envelopeId)).toHaveLength(1);
    const [declined] = await eventsOf('signature.envelope.declined', envelopeId);
    expect((declined!.payload as { object: unknown }).object).toMatchObject({ status: 'declined', declined_by_signer_id: signerIds[0], reason: 'Le montant est faux.', signer_count: 2 });
    expect(await sealJobs(envelopeId)).toHaveLength(1);
    const mails = await org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_declined')));
    const toOther = mails.find((m) => m.to.includes('autre@exemple.fr'));
    expect(toOther!.subject).toBe('Signature refusée : Contrat de prestation');
    expect(toOther!.text).toContain('Le montant est faux.');
    expect(mails.some((m) => m.to.includes('non@exemple.fr'))).toBe(false);
    expect(await verifyAuditChain(org.db, envelopeId)).toMatchObject({ ok: true });
  });

  it('410 link_expired after the sender cancels', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'annule@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    expect((await state(t)).status).toBe(200);
    await cancelEnvelope(org.db, org.org.id, envelopeId, { ip: null, user_agent: null });
    for (const res of [await state(t), await post(consentRoute, t, 'consent'), await post(declineRoute, t, 'decline', { reason: 'x' })]) {
      expect(res).toMatchObject({ status: 410, body: { code: 'link_expired', field: null } });
    }
  });
});
