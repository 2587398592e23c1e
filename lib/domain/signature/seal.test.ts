import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, type PDFHexString, PDFName, type PDFRawStream, type PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as collection from '@/app/v1/signature/envelopes/route';
import * as attachedRoute from '@/app/v1/signature/envelopes/[id]/documents/route';
import * as fieldsRoute from '@/app/v1/signature/envelopes/[id]/fields/route';
import * as proofRoute from '@/app/v1/signature/envelopes/[id]/proof/route';
import * as requestedRoute from '@/app/v1/signature/envelopes/[id]/requested-documents/route';
import * as signedRoute from '@/app/v1/signature/envelopes/[id]/signed/route';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import type { Db } from '@/db/client';
import { emails, signatureAuditEvents, signatureDocuments, signatureEnvelopes, signatureFields, signatureRequestedDocuments, signatureSigners } from '@/db/schema';
import { runCli } from '@/lib/composition/cli/program';
import { jobs } from '@/lib/composition/modules';
import { getStorage, LocalStorage, readAll, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { signatureCli } from './cli';
import { sendEnvelope } from './lifecycle';
import { EVIDENCE_FILE_NAME } from './proof';
import { SEAL_JOB, sealEnvelope, sealEnvelopeJob } from './seal-job';
import { consentToSign, declineToSign, fillSignerField, requestSignerCode, signEnvelope, uploadSignerDocument, verifySignerCode } from './signer-api';
import { decryptSignerToken } from './tokens';
import { checkSeal, verifyEnvelope } from './verify';

const hasPdfsig = spawnSync('pdfsig', ['-v']).error === undefined;
if (!hasPdfsig) console.warn('[seal.test] pdfsig (poppler-utils) is not installed: the independent check of the seal is skipped');

const ctx = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (vitest signer)' };
// A 1×1 PNG: a drawn signature.
const DRAWN = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let dir = '';
let org: TestOrg;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-seal-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg();
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function pdfBytes(pages: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i += 1) doc.addPage([595, 842]).drawText(`Contrat page ${i + 1}`, { x: 50, y: 780 });
  return doc.save();
}

async function uploadPdf(pages = 2, name = 'contrat.pdf') {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await pdfBytes(pages))], { type: 'application/pdf' }), name);
  const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await org.key()}` }, body: form });
  const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id as string;
}

const signers = (db: Db, envelopeId: string) => db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
const tokenOf = async (signerId: string) => {
  const [s] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, signerId));
  return decryptSignerToken(s!.token_ciphertext, s!.token_hash)!;
};
const envelopeRow = async (id: string) => (await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)))[0]!;
const completedMails = (envelopeTitle: string) =>
  org.db
    .select()
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_completed'), sql`${emails.template_data}->>'document_title' = ${envelopeTitle}`));

/** A draft through the API, fields placed through PUT …/fields (one of them a text tag's), sent by the lifecycle. */
async function sentEnvelope(subject: string, withFields = true) {
  const documentId = await uploadPdf();
  const created = await call(collection.POST, 'POST', '/v1/signature/envelopes', {
    token: await org.key(),
    body: {
      source_kind: 'document',
      source_document_id: documentId,
      subject,
      cc_recipients: ['compta@exemple.fr'],
      signers: [
        { email: 'alice@exemple.fr', full_name: 'Alice Martin', routing_order: 0, verification_method: 'email_otp' },
        { email: 'bob@exemple.fr', full_name: 'Bob Durand', routing_order: 1, verification_method: 'none' },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id: string = created.body.id;
  const [alice, bob] = created.body.signers.map((s: { id: string }) => s.id);
  if (withFields) {
    // A text tag's field, as detection at upload leaves it: PUT keeps it a tag when its id is sent back.
    const [tag] = await org.db
      .insert(signatureFields)
      .values({ org_id: org.org.id, envelope_id: id, signer_id: alice, position: 0, type: 'signature', page: 1, x: 0.3, y: 0.05, width: 0.2, height: 0.04, origin: 'tag' })
      .returning();
    const fields = [
      { id: tag!.id, signer_id: alice, type: 'signature', page: 1, x: 0.3, y: 0.05, width: 0.2, height: 0.04 },
      { signer_id: alice, type: 'text', page: 1, x: 0.1, y: 0.5, width: 0.4, height: 0.04, label: 'Fonction' },
      { signer_id: alice, type: 'checkbox', page: 1, x: 0.1, y: 0.6, width: 0.03, height: 0.02, label: 'J’accepte les CGV' },
      { signer_id: alice, type: 'date', page: 2, x: 0.1, y: 0.8, width: 0.2, height: 0.03 },
      { signer_id: bob, type: 'signature', page: 2, x: 0.5, y: 0.8, width: 0.3, height: 0.08 },
      { signer_id: bob, type: 'name', page: 2, x: 0.5, y: 0.9, width: 0.3, height: 0.03 },
    ];
    const put = await call(fieldsRoute.PUT, 'PUT', `/v1/signature/envelopes/${id}/fields`, { token: await org.key(), params: { id }, body: { fields } });
    expect(put.status).toBe(200);
    expect(put.body.data[0]).toMatchObject({ id: tag!.id, origin: 'tag' });
    const requested = { requested_documents: [{ signer_id: alice, label: 'Pièce d’identité' }] };
    expect((await call(requestedRoute.PUT, 'PUT', `/v1/signature/envelopes/${id}/requested-documents`, { token: await org.key(), params: { id }, body: requested })).status).toBe(200);
    const annex = await uploadPdf(1, 'annexe.pdf');
    expect((await call(attachedRoute.POST, 'POST', `/v1/signature/envelopes/${id}/documents`, { token: await org.key(), params: { id }, body: { document_id: annex } })).status).toBe(201);
  }
  await sendEnvelope(org.db, org.org.id, id, { ip: '198.51.100.1', user_agent: 'vitest-sender' });
  return { id, alice: alice as string, bob: bob as string };
}

async function aliceSigns(envelope: { id: string; alice: string }, fill = true) {
  const token = await tokenOf(envelope.alice);
  await consentToSign(org.db, token, ctx);
  await requestSignerCode(org.db, token, ctx);
  const [mail] = await org.db
    .select()
    .from(emails)
    .where(and(eq(emails.template, 'signature_code'), sql`'alice@exemple.fr' = any(${emails.to})`, eq(emails.org_id, org.org.id)))
    .orderBy(sql`${emails.id} desc`)
    .limit(1);
  await verifySignerCode(org.db, token, (mail!.template_data as { code: string }).code, ctx);
  if (fill) {
    const fields = await org.db.select().from(signatureFields).where(eq(signatureFields.signer_id, envelope.alice));
    await fillSignerField(org.db, token, fields.find((f) => f.type === 'text')!.id, 'Gérante', ctx);
    await fillSignerField(org.db, token, fields.find((f) => f.type === 'checkbox')!.id, true, ctx);
    const [requested] = await org.db.select().from(signatureRequestedDocuments).where(eq(signatureRequestedDocuments.envelope_id, envelope.id));
    const id = new File([new Uint8Array(await pdfBytes(1))], 'cni.pdf', { type: 'application/pdf' });
    await uploadSignerDocument(org.db, token, requested!.id, id, ctx);
  }
  await signEnvelope(org.db, token, { kind: 'typed', value: 'Alice Martin' }, ctx);
}

async function bobSigns(envelope: { bob: string }) {
  const token = await tokenOf(envelope.bob);
  await consentToSign(org.db, token, ctx);
  await signEnvelope(org.db, token, { kind: 'drawn', value: DRAWN }, ctx);
}

const download = async (route: typeof signedRoute.GET, id: string, what: string, headers?: Record<string, string>) => {
  const res = await route(new Request(`http://localhost:3000/v1/signature/envelopes/${id}/${what}`, { headers: { authorization: `Bearer ${await org.key()}`, ...headers } }), {
    params: Promise.resolve({ id }),
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

function attachedEvidence(pdf: PDFDocument): unknown {
  const names = pdf.catalog.lookup(PDFName.of('Names'), PDFDict).lookup(PDFName.of('EmbeddedFiles'), PDFDict).lookup(PDFName.of('Names'), PDFArray);
  expect((names.lookup(0) as PDFHexString | PDFString).decodeText()).toBe(EVIDENCE_FILE_NAME);
  const stream = names.lookup(1, PDFDict).lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as PDFRawStream;
  return JSON.parse(Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8'));
}

describe('the signature.seal job on a completed envelope', () => {
  let envelope: { id: string; alice: string; bob: string };
  let signed: Buffer;

  beforeAll(async () => {
    envelope = await sentEnvelope('Contrat scellé');
    await aliceSigns(envelope);
    expect(await sealEnvelope(org.db, envelope.id)).toBe('not_finished');
    await bobSigns(envelope);
    expect((await envelopeRow(envelope.id)).status).toBe('completed');
    expect(await sealEnvelope(org.db, envelope.id)).toBe('sealed');
  });

  it('stores the signed PDF (its SHA-256 kept), served with its ETag and 304', async () => {
    const row = await envelopeRow(envelope.id);
    expect(row.signed_document_key).toBe(`signature/${org.org.id}/signed/${envelope.id}.pdf`);
    const res = await download(signedRoute.GET, envelope.id, 'signed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    signed = res.bytes;
    expect(sha256Hex(signed)).toBe(row.signed_document_sha256);
    expect(res.headers.get('etag')).toBe(`"${row.signed_document_sha256}"`);
    expect((await download(signedRoute.GET, envelope.id, 'signed', { 'if-none-match': `"${row.signed_document_sha256}"` })).status).toBe(304);
    // The original's pages, plus the signature page.
    expect((await PDFDocument.load(signed, { ignoreEncryption: true })).getPageCount()).toBe(3);
  });

  it.runIf(hasPdfsig)('is a seal poppler’s pdfsig finds valid: ETSI.CAdES.detached over the whole document', async () => {
    const file = path.join(dir, 'signed.pdf');
    await writeFile(file, signed);
    const out = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    expect(out).toContain('Signature Type: ETSI.CAdES.detached');
    expect(out).toContain('Signature Validation: Signature is Valid.');
    expect(out).toContain('Total document signed');
    expect(out).toContain('Signing Hash Algorithm: SHA-256');
  });

  it('signs the document whose hash was fixed at send, and the verifier agrees (chain, document hash, seal)', async () => {
    const row = await envelopeRow(envelope.id);
    const [doc] = await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.id, row.document_id!));
    const original = await readAll((await getStorage().get(doc!.storage_key))!.body);
    expect(sha256Hex(original)).toBe(row.document_hash);
    const report = await verifyEnvelope(org.db, envelope.id);
    expect(report).toMatchObject({ ok: true, chain: { ok: true }, document: { ok: true, expected: row.document_hash }, seal: { ok: true, digest: true, signature: true, certificate: true } });
    const lines: string[] = [];
    const code = await runCli(['signature:verify', '--envelope', envelope.id], { db: async () => org.db, out: (l) => lines.push(l), err: (l) => lines.push(l) }, [signatureCli]);
    expect(code).toBe(0);
    expect(lines.join('\n')).toContain('VERIFIED');
  });

  it('builds the proof with the JSON evidence attached (signers, IPs, user agents, hashes, the chain)', async () => {
    const res = await download(proofRoute.GET, envelope.id, 'proof');
    expect(res.status).toBe(200);
    const evidence = attachedEvidence(await PDFDocument.load(res.bytes)) as { signers: unknown[]; audit_chain: unknown[]; attachments: unknown[]; uploads: unknown[] };
    const row = await envelopeRow(envelope.id);
    const chain = await org.db.select().from(signatureAuditEvents).where(eq(signatureAuditEvents.envelope_id, envelope.id));
    expect(evidence).toMatchObject({
      envelope: { id: envelope.id, status: 'completed' },
      document: { document_hash: row.document_hash },
      signed_document_sha256: row.signed_document_sha256,
      audit_chain_verification: { ok: true, count: chain.length },
    });
    expect(evidence.signers).toMatchObject([
      { email: 'alice@exemple.fr', verification_method: 'email_otp', signed_ip: ctx.ip, signed_user_agent: ctx.userAgent, signature_kind: 'typed' },
      { email: 'bob@exemple.fr', verification_method: 'none', signed_ip: ctx.ip, signature_kind: 'drawn' },
    ]);
    expect(evidence.audit_chain.length).toBe(chain.length);
    expect(evidence.attachments).toMatchObject([{ name: 'annexe.pdf', page_count: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(evidence.uploads).toMatchObject([{ signer_id: envelope.alice, requested_label: 'Pièce d’identité', name: 'cni.pdf', content_type: 'application/pdf', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  it('e-mails the signed PDF to each signer and to the sender with the copied recipients, once: a re-run does nothing', async () => {
    const mails = await completedMails('Contrat scellé');
    const recipients = mails.map((m) => [...m.to, ...(m.cc ?? [])].join(',')).sort();
    expect(recipients.some((r) => r.includes('compta@exemple.fr'))).toBe(true);
    expect(recipients.filter((r) => r === 'alice@exemple.fr' || r === 'bob@exemple.fr')).toEqual(['alice@exemple.fr', 'bob@exemple.fr']);
    for (const m of mails) expect(m.attachments).toMatchObject([{ filename: 'contrat - signé.pdf', content_type: 'application/pdf', size: signed.length }]);
    const before = await envelopeRow(envelope.id);
    expect(await sealEnvelope(org.db, envelope.id)).toBe('already_done');
    expect((await completedMails('Contrat scellé')).length).toBe(mails.length);
    expect((await envelopeRow(envelope.id)).signed_document_sha256).toBe(before.signed_document_sha256);
  });

  it('the verifier detects a tampered signed PDF', async () => {
    const row = await envelopeRow(envelope.id);
    const tampered = Buffer.from(signed);
    // A byte of the document inside the signed range (the first object), not the signature's hole.
    const at = tampered.indexOf('obj') + 5;
    tampered[at] = tampered[at]! ^ 0x01;
    expect(checkSeal(tampered, { sha256: null, completedAt: null, instanceFingerprint: null })).toMatchObject({ ok: false, byte_range: true, digest: false });
    await getStorage().put(row.signed_document_key!, tampered);
    try {
      const report = await verifyEnvelope(org.db, envelope.id);
      expect(report).toMatchObject({ ok: false, chain: { ok: true }, seal: { ok: false, stored_hash: false, digest: false } });
    } finally {
      await getStorage().put(row.signed_document_key!, signed);
    }
  });

  it('the verifier detects a tampered chain row (exit code 1)', async () => {
    const [event] = await org.db
      .select()
      .from(signatureAuditEvents)
      .where(and(eq(signatureAuditEvents.envelope_id, envelope.id), eq(signatureAuditEvents.seq_index, 2)));
    // As an attacker with psql could: the append-only trigger switched off.
    await org.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update signature_audit_events set event_data = jsonb_set(event_data, '{ip}', '"192.0.2.66"') where id = ${event!.id}`);
    });
    const report = await verifyEnvelope(org.db, envelope.id);
    expect(report).toMatchObject({ ok: false, chain: { ok: false, first_broken: { index: 2, reason: 'content_hash_mismatch' } }, seal: { ok: true } });
    const lines: string[] = [];
    const code = await runCli(['signature:verify', '--envelope', envelope.id], { db: async () => org.db, out: (l) => lines.push(l), err: (l) => lines.push(l) }, [signatureCli]);
    expect(code).toBe(1);
    expect(lines.join('\n')).toContain('BROKEN at index 2');
  });
});

describe('the signature.seal job without a signed PDF', () => {
  it('a declined envelope gets its proof only: no signed PDF (409), no completed e-mail', async () => {
    const envelope = await sentEnvelope('Contrat refusé');
    const token = await tokenOf(envelope.alice);
    await declineToSign(org.db, token, 'Le prix a changé', ctx);
    expect(await sealEnvelope(org.db, envelope.id)).toBe('proof_only');
    const signed = await call(signedRoute.GET, 'GET', `/v1/signature/envelopes/${envelope.id}/signed`, { token: await org.key(), params: { id: envelope.id } });
    expect(signed).toMatchObject({ status: 409, body: { code: 'signed_document_unavailable' } });
    const proof = await download(proofRoute.GET, envelope.id, 'proof');
    expect(proof.status).toBe(200);
    expect(attachedEvidence(await PDFDocument.load(proof.bytes))).toMatchObject({ envelope: { status: 'declined' }, signers: [{ status: 'declined', decline_reason: 'Le prix a changé' }, {}] });
    expect(await completedMails('Contrat refusé')).toEqual([]);
    expect((await signers(org.db, envelope.id))[0]!.status).toBe('declined');
  });

  it('a completed envelope without positioned fields: the proof, e-mailed in place of a signed PDF', async () => {
    const envelope = await sentEnvelope('Contrat sans champs', false);
    await aliceSigns(envelope, false);
    await bobSigns(envelope);
    // Through the job the completion queued (its queue is the module's: the name completion uses).
    expect(jobs.find((j) => j.name === SEAL_JOB)).toBe(sealEnvelopeJob);
    await sealEnvelopeJob.handle({ envelope_id: envelope.id }, { db: org.db, jobId: 'test', attempt: 1 });
    const row = await envelopeRow(envelope.id);
    expect(row).toMatchObject({ signed_document_key: null, status: 'completed' });
    expect(row.proof_key).not.toBeNull();
    const mails = await completedMails('Contrat sans champs');
    expect(mails.length).toBe(3);
    expect(mails[0]!.attachments).toMatchObject([{ filename: 'preuve-contrat.pdf' }]);
  });
});
