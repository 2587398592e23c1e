import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as one from '@/app/v1/signature/envelopes/[id]/route';
import * as proofRoute from '@/app/v1/signature/envelopes/[id]/proof/route';
import * as sealRoute from '@/app/v1/signature/envelopes/[id]/seal/route';
import * as signedRoute from '@/app/v1/signature/envelopes/[id]/signed/route';
import * as collection from '@/app/v1/signature/envelopes/route';
import { emails, signatureDocuments, signatureEnvelopes, signatureFields, signatureSigners } from '@/db/schema';
import { renderEmail } from '@/lib/platform/email';
import type { Scope } from '@/lib/platform/auth';
import { getStorage, LocalStorage, readAll, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { sendEnvelope } from './lifecycle';
import { SEAL_JOB, sealEnvelopeJob } from './seal-job';
import { consentToSign, signEnvelope } from './signer-api';
import { staffMember } from './testing';
import { tokenOf, uploadedPdf } from './testing/signer';

/*
 * Issue 33: a seal that fails for good is visible (the envelope's evidence, the sender's e-mail, 409 evidence_* on the
 * downloads) and retried once its cause is fixed. The failures are real: the stored original removed from storage, a
 * drawn signature that cannot be decoded. The jobs are those written in pgboss.job, run through the job's handler with
 * pg-boss's attempt numbers (as lib/domain/pdf/render.test.ts does for its last attempt).
 */

const ctx = { ip: '203.0.113.9', userAgent: 'vitest-seal-failure' };
const LAST_ATTEMPT = sealEnvelopeJob.retryLimit + 1;
// A PNG's signature and nothing else: pdf-lib's decoder throws `RangeError: Invalid typed array length: 0` on it.
const BROKEN_PNG = 'data:image/png;base64,iVBORw0KGgo=';

let dir = '';
let org: TestOrg;
let other: TestOrg;
let sender: Awaited<ReturnType<typeof staffMember>>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-seal-failure-'));
  setStorage(new LocalStorage(dir));
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  sender = await staffMember(org, 'sender');
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const api = {
  get: async (id: string, o = org) => call(one.GET, 'GET', `/v1/signature/envelopes/${id}`, { token: await o.key(), params: { id } }),
  seal: async (id: string, o = org, scopes?: Scope[]) => call(sealRoute.POST, 'POST', `/v1/signature/envelopes/${id}/seal`, { token: await o.key(scopes), params: { id } }),
  proof: async (id: string) => call(proofRoute.GET, 'GET', `/v1/signature/envelopes/${id}/proof`, { token: await org.key(), params: { id } }),
  signed: async (id: string) => call(signedRoute.GET, 'GET', `/v1/signature/envelopes/${id}/signed`, { token: await org.key(), params: { id } }),
};

/** A one-signer envelope created by the staff member (its sender), with a signature field, sent; signed unless told. */
async function envelope(subject: string, { sign = true } = {}) {
  const documentId = await uploadedPdf(org);
  const created = await call(collection.POST, 'POST', '/v1/signature/envelopes', {
    headers: sender.headers,
    body: { source_kind: 'document', source_document_id: documentId, subject, signers: [{ email: 'claire@exemple.fr', full_name: 'Claire Client', verification_method: 'none' }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id: string = created.body.id;
  const signerId: string = created.body.signers[0].id;
  await org.db.insert(signatureFields).values({ org_id: org.org.id, envelope_id: id, signer_id: signerId, position: 0, type: 'signature', page: 1, x: 0.1, y: 0.7, width: 0.3, height: 0.08 });
  await sendEnvelope(org.db, org.org.id, id, { ip: '198.51.100.1', user_agent: 'vitest-sender' });
  if (sign) {
    const token = (await tokenOf(org, signerId))!;
    await consentToSign(org.db, token, ctx);
    await signEnvelope(org.db, token, { kind: 'typed', value: 'Claire Client' }, ctx);
  }
  return { id, signerId };
}

/** The seal jobs written for the envelope, oldest first (the completion's, then each retry's). */
const sealJobs = async (envelopeId: string) =>
  ((await org.db.execute(sql`select id, data, state from pgboss.job where name = ${SEAL_JOB} and data->>'envelope_id' = ${envelopeId} order by created_on, id`)) as unknown as {
    rows: Array<{ id: string; data: { envelope_id: string }; state: string }>;
  }).rows;
const runJob = (job: { id: string; data: { envelope_id: string } }, attempt: number) => sealEnvelopeJob.handle(job.data, { db: org.db, jobId: job.id, attempt });
const mailsOf = (template: 'signature_seal_failed' | 'signature_completed', title: string) =>
  org.db
    .select()
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.template, template), sql`${emails.template_data}->>'document_title' = ${title}`));
const originalOf = async (id: string) => {
  const [row] = await org.db.select({ key: signatureDocuments.storage_key }).from(signatureEnvelopes).innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureEnvelopes.document_id)).where(eq(signatureEnvelopes.id, id));
  return row!.key;
};

describe('a seal that fails for good, then is retried', () => {
  let e: { id: string; signerId: string };
  let original: Buffer;
  let key: string;

  beforeAll(async () => {
    e = await envelope('Contrat sans original');
    key = await originalOf(e.id);
    original = await readAll((await getStorage().get(key))!.body);
    // The cause: the stored original is gone (a storage incident, a purge gone wrong).
    await getStorage().delete(key);
  });

  it('completion queued the seal job; before it runs the evidence is pending and the downloads answer 409 evidence_pending', async () => {
    expect(await sealJobs(e.id)).toHaveLength(1);
    const got = await api.get(e.id);
    expect(got.body).toMatchObject({ status: 'completed', has_proof: false, has_signed_document: false, evidence: { status: 'pending', attempts: 0, error_code: null, failed_at: null } });
    expect(await api.proof(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_pending' } });
    expect(await api.signed(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_pending' } });
  });

  it('a failed attempt that will be retried records its cause and stays pending, with no e-mail yet', async () => {
    const [job] = await sealJobs(e.id);
    await expect(runJob(job!, 1)).rejects.toThrow('original PDF is missing');
    expect((await api.get(e.id)).body.evidence).toEqual({ status: 'pending', attempts: 1, error_code: 'original_missing', failed_at: null });
    expect(await mailsOf('signature_seal_failed', 'Contrat sans original')).toEqual([]);
  });

  it('the last attempt marks the evidence failed, e-mails the sender once, and the downloads answer 409 evidence_failed', async () => {
    const [job] = await sealJobs(e.id);
    await expect(runJob(job!, LAST_ATTEMPT)).rejects.toThrow('original PDF is missing');
    const got = await api.get(e.id);
    expect(got.body).toMatchObject({ status: 'completed', has_proof: false, evidence: { status: 'failed', attempts: 2, error_code: 'original_missing', failed_at: expect.any(String) } });
    const [row] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, e.id));
    expect(row!.evidence_error).toContain(key);
    expect(await api.proof(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_failed' } });
    expect(await api.signed(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_failed' } });

    const mails = await mailsOf('signature_seal_failed', 'Contrat sans original');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: [sender.user.email], language: 'fr' });
    expect(mails[0]!.template_data).toMatchObject({ envelope_status: 'completed', error_code: 'original_missing', attempts: 2, envelope_url: expect.stringContaining(`/signature/${e.id}`) });
    expect(mails[0]!.subject).toContain('scellement');
    // The signers are not told it is signed while there is no signed PDF to give them.
    expect(await mailsOf('signature_completed', 'Contrat sans original')).toEqual([]);

    // Another job failing on it (a duplicate) counts its attempt but writes to the sender no second time.
    await expect(runJob(job!, LAST_ATTEMPT)).rejects.toThrow();
    expect(await mailsOf('signature_seal_failed', 'Contrat sans original')).toHaveLength(1);
  });

  it('POST …/seal: another org’s envelope is a 404, a read-only key a 403', async () => {
    expect(await api.seal(e.id, other)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await api.seal(e.id, org, ['signature:read'])).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect((await api.get(e.id)).body.evidence.status).toBe('failed');
  });

  it('once the cause is fixed, the retry queues a fresh job that seals: the proof and the signed PDF are served, the signers e-mailed', async () => {
    await getStorage().put(key, original, { contentType: 'application/pdf' });
    const retried = await api.seal(e.id);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ id: e.id, status: 'completed', evidence: { status: 'pending', attempts: 3, error_code: 'original_missing', failed_at: null } });
    expect(retried.body.signers).toHaveLength(1);
    // While the fresh job waits, a second retry has nothing to do.
    expect(await api.seal(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_not_failed' } });

    const jobs = await sealJobs(e.id);
    expect(jobs).toHaveLength(2);
    await runJob(jobs[1]!, 1);
    const got = await api.get(e.id);
    expect(got.body).toMatchObject({ has_proof: true, has_signed_document: true, evidence: { status: 'sealed', attempts: 4, error_code: null, failed_at: null } });
    expect((await api.proof(e.id)).status).toBe(200);
    expect((await api.signed(e.id)).status).toBe(200);
    const completed = await mailsOf('signature_completed', 'Contrat sans original');
    expect(completed.map((m) => m.to[0]).sort()).toEqual(['claire@exemple.fr', sender.user.email].sort());

    // Sealed: nothing to retry; the completion's old job, run late, does nothing.
    expect(await api.seal(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_not_failed' } });
    await runJob(jobs[0]!, 1);
    expect((await mailsOf('signature_completed', 'Contrat sans original')).length).toBe(completed.length);
  });
});

describe('the seal’s other causes and refusals', () => {
  it('a drawn signature that cannot be decoded fails as signature_image_invalid', async () => {
    const e = await envelope('Contrat signature illisible');
    // Inserted as a value the signing checks would have let through before they looked at the PNG itself.
    await org.db.update(signatureSigners).set({ signature_kind: 'drawn', signature_value: BROKEN_PNG }).where(eq(signatureSigners.id, e.signerId));
    const [job] = await sealJobs(e.id);
    await expect(runJob(job!, LAST_ATTEMPT)).rejects.toThrow('cannot be decoded');
    expect((await api.get(e.id)).body.evidence).toMatchObject({ status: 'failed', attempts: 1, error_code: 'signature_image_invalid' });
    expect(await mailsOf('signature_seal_failed', 'Contrat signature illisible')).toHaveLength(1);
  });

  it('an original whose bytes changed since the send is never sealed: original_altered', async () => {
    const e = await envelope('Contrat modifié');
    await getStorage().put(await originalOf(e.id), Buffer.from('%PDF-1.7\n% not the document the signer signed\n'), { contentType: 'application/pdf' });
    const [job] = await sealJobs(e.id);
    await expect(runJob(job!, 1)).rejects.toThrow('document_hash');
    expect((await api.get(e.id)).body.evidence).toMatchObject({ status: 'pending', error_code: 'original_altered' });
  });

  it('POST …/seal is 409 evidence_not_failed for an envelope not finished, and the evidence is null until then', async () => {
    const e = await envelope('Contrat en cours', { sign: false });
    const got = await api.get(e.id);
    expect(got.body).toMatchObject({ status: 'sent', evidence: null });
    expect(await api.seal(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_not_failed' } });
    expect(await api.proof(e.id)).toMatchObject({ status: 409, body: { code: 'proof_unavailable' } });
    expect(await api.signed(e.id)).toMatchObject({ status: 409, body: { code: 'signed_document_unavailable' } });
  });

  it('a pending evidence whose job is gone (its worker died at the last attempt) can be retried', async () => {
    const e = await envelope('Contrat sans job');
    expect(await api.seal(e.id)).toMatchObject({ status: 409, body: { code: 'evidence_not_failed' } });
    await org.db.execute(sql`update pgboss.job set state = 'failed' where name = ${SEAL_JOB} and data->>'envelope_id' = ${e.id}`);
    const retried = await api.seal(e.id);
    expect(retried).toMatchObject({ status: 200, body: { evidence: { status: 'pending' } } });
    const jobs = await sealJobs(e.id);
    await runJob(jobs.at(-1)!, 1);
    expect((await api.get(e.id)).body.evidence.status).toBe('sealed');
  });

  it('the sender’s e-mail reads in French and in English', async () => {
    const data = {
      seller_name: 'Atelier Dupont',
      document_title: 'Contrat',
      envelope_status: 'completed' as const,
      error_code: 'original_missing',
      attempts: 6,
      failed_at: '2026-11-26T10:00:00.000Z',
      envelope_url: 'https://app.example/signature/1',
    };
    const fr = await renderEmail('signature_seal_failed', data, 'fr');
    expect(fr.subject).toBe('Action requise : le scellement de « Contrat » a échoué');
    expect(fr.text).toContain('le PDF original n’est plus dans le stockage');
    expect(fr.text).toContain('Relancer le scellement');
    const en = await renderEmail('signature_seal_failed', { ...data, error_code: 'some_new_code' }, 'en');
    expect(en.subject).toBe('Action required: sealing “Contrat” failed');
    expect(en.text).toContain('a technical error');
  });
});
