import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as codeRoute from '@/app/api/sign/[token]/code/route';
import * as verifyRoute from '@/app/api/sign/[token]/code/verify/route';
import * as consentRoute from '@/app/api/sign/[token]/consent/route';
import * as documentRoute from '@/app/api/sign/[token]/document/route';
import * as fieldRoute from '@/app/api/sign/[token]/fields/[field_id]/route';
import * as stateRoute from '@/app/api/sign/[token]/route';
import * as signRoute from '@/app/api/sign/[token]/sign/route';
import * as uploadsRoute from '@/app/api/sign/[token]/uploads/route';
import { signatureAuditEvents, signatureEnvelopes, signatureSigners, signatureUploads } from '@/db/schema';
import { renderEmail } from '@/lib/platform/email';
import { getStorage, LocalStorage, readAll, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { slowestHealthzWhile } from '@/lib/testing/responsiveness';
import { pdfBytes, emailedCode, sentEnvelope, textedCode, tokenOf, uploadedPdf } from './testing/signer';

let dir = '';
let org: TestOrg;
let documentId: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-sign-api-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg();
  documentId = await uploadedPdf(org);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const UA = { 'user-agent': 'vitest-signer', 'x-forwarded-for': '203.0.113.7' };
const state = (t: string, query: Record<string, string> = {}) => call(stateRoute.GET, 'GET', `/api/sign/${t}`, { params: { token: t }, headers: UA, query });
const consent = (t: string) => call(consentRoute.POST, 'POST', `/api/sign/${t}/consent`, { params: { token: t }, headers: UA });
const askCode = (t: string) => call(codeRoute.POST, 'POST', `/api/sign/${t}/code`, { params: { token: t }, headers: UA });
const verify = (t: string, code: string) => call(verifyRoute.POST, 'POST', `/api/sign/${t}/code/verify`, { params: { token: t }, headers: UA, body: { code } });
const fill = (t: string, fieldId: string, value: unknown) =>
  call(fieldRoute.PUT, 'PUT', `/api/sign/${t}/fields/${fieldId}`, { params: { token: t, field_id: fieldId }, headers: UA, body: { value } });
const signAs = (t: string, signature: unknown) => call(signRoute.POST, 'POST', `/api/sign/${t}/sign`, { params: { token: t }, headers: UA, body: { signature } });
async function upload(t: string, requestedId: string, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set('requested_document_id', requestedId);
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await uploadsRoute.POST(new Request(`http://localhost:3000/api/sign/${t}/uploads`, { method: 'POST', headers: UA, body: form }), {
    params: Promise.resolve({ token: t }),
  });
  return { status: res.status, body: await res.json() };
}
const chainOf = async (envelopeId: string) =>
  (await org.db.select().from(signatureAuditEvents).where(eq(signatureAuditEvents.envelope_id, envelopeId))).sort((a, b) => a.seq_index - b.seq_index);

/** A PNG of one colour, width × height at `depth` bits and colour `type`: a few bytes however large, as zlib packs zeros. */
function pngOf(width: number, height: number, depth: number, type: number): Buffer {
  const chunk = (name: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(name, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(depth, 8);
  ihdr.writeUInt8(type, 9);
  const channels = type === 6 ? 4 : type === 2 ? 3 : 1;
  const row = 1 + Math.ceil((width * channels * depth) / 8);
  const pixels = deflateSync(Buffer.alloc(row * height));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

describe('GET /api/sign/<token>', () => {
  it('404 for an unknown or malformed token, saying nothing more', async () => {
    for (const t of ['x'.repeat(43), 'nope']) {
      const res = await state(t);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: 'Signing link not found.', field: null });
    }
  });

  it('answers the state; the first visit marks the signer opened and the envelope in progress, once', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'alice@exemple.fr', full_name: 'Alice Martin', fields: ['text'] }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const res = await state(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      envelope: { id: envelopeId, status: 'in_progress', subject: 'Contrat de prestation', page_count: 2 },
      signer: { id: signerIds[0], email: 'alice@exemple.fr', full_name: 'Alice Martin', status: 'opened', verification_method: 'email_otp', verified: false, consent_given_at: null, signed_at: null },
      fields: [{ type: 'text', page: 1, required: true, value: null }],
      requested_documents: [],
      consent_text_version: '2026-11-26',
      outcome: null,
    });
    expect(res.body.consent_text).toMatch(/^J’accepte de signer/);
    expect((await state(t, { lang: 'en' })).body.consent_text).toMatch(/^I agree to sign/);
    expect(res.body.consent_texts).toEqual({ fr: res.body.consent_text, en: expect.stringMatching(/^I agree to sign/) });
    const opened = (await chainOf(envelopeId)).filter((e) => e.event_type === 'signer.opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ signer_id: signerIds[0], event_data: { ip: '203.0.113.7', user_agent: 'vitest-signer' } });
    expect(JSON.stringify(res.body)).not.toMatch(/token|code_hash|otp_attempts/);
  });

  it('GET …/document: the PDF with its SHA-256 as ETag, 304 when the page has it', async () => {
    const { signerIds } = await sentEnvelope(org, documentId, [{ email: 'doc@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const res = await documentRoute.GET(new Request(`http://localhost:3000/api/sign/${t}/document`), { params: Promise.resolve({ token: t }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.headers.get('etag')).toBe(`"${sha256Hex(bytes)}"`);
    const again = await documentRoute.GET(new Request(`http://localhost:3000/api/sign/${t}/document`, { headers: { 'if-none-match': res.headers.get('etag')! } }), {
      params: Promise.resolve({ token: t }),
    });
    expect(again.status).toBe(304);
  });
});

describe('consent and one-time codes', () => {
  it('POST …/consent records the consent with the text version, once', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'consent@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const res = await consent(t);
    expect(res.status).toBe(200);
    expect(res.body.signer.consent_given_at).toEqual(expect.any(String));
    expect((await consent(t)).body.signer.consent_given_at).toBe(res.body.signer.consent_given_at);
    const given = (await chainOf(envelopeId)).filter((e) => e.event_type === 'signer.consent_given');
    expect(given).toHaveLength(1);
    expect(given[0]!.event_data).toMatchObject({ consent_text_version: '2026-11-26', ip: '203.0.113.7' });
    const [envelope] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
    expect(envelope!.status).toBe('in_progress');
  });

  it('a code by e-mail: 202, hashed, throttled; a wrong code is 422, the right one verifies', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'code@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const sent = await askCode(t);
    expect(sent.status).toBe(202);
    expect(sent.body.code).toMatchObject({ channel: 'email', sent_to: 'c•••@exemple.fr' });
    const code = await emailedCode(org, 'code@exemple.fr');
    expect(code).toMatch(/^\d{6}$/);
    expect(JSON.stringify(await org.db.select().from(signatureAuditEvents).where(eq(signatureAuditEvents.envelope_id, envelopeId)))).not.toContain(code);
    const again = await askCode(t);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const wrong = await verify(t, code === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'invalid_code', field: 'code' });
    const right = await verify(t, code);
    expect(right.status).toBe(200);
    expect(right.body.signer.verified).toBe(true);
    expect(await verify(t, code)).toMatchObject({ status: 200 });
    const types = (await chainOf(envelopeId)).map((e) => e.event_type);
    expect(types).toEqual(expect.arrayContaining(['signer.code_sent', 'signer.code_failed', 'signer.code_verified']));
    expect((await askCode(t)).body).toMatchObject({ code: 'already_verified' });
  });

  it('a code by SMS lands in the SMS outbox', async () => {
    const { signerIds } = await sentEnvelope(org, documentId, [{ email: 'sms@exemple.fr', phone: '+33611223344', verification_method: 'sms_otp' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const sent = await askCode(t);
    expect(sent.status).toBe(202);
    expect(sent.body.code).toMatchObject({ channel: 'sms', sent_to: '+33•••••••44' });
    expect((await verify(t, await textedCode(org, '+33611223344'))).body.signer.verified).toBe(true);
  });

  it('five wrong codes lock the signer (423 signer_locked), recorded in the chain; the lock holds', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'lock@exemple.fr' }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    await askCode(t);
    const code = await emailedCode(org, 'lock@exemple.fr');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) expect((await verify(t, wrong)).status).toBe(422);
    const fifth = await verify(t, wrong);
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe('signer_locked');
    expect((await verify(t, code)).status).toBe(423);
    expect((await askCode(t)).status).toBe(423);
    await consent(t);
    expect((await signAs(t, { kind: 'typed', value: 'Lock' })).status).toBe(423);
    expect((await state(t)).body.signer).toMatchObject({ locked: true, verified: false });
    const [signer] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, signerIds[0]!));
    expect(signer).toMatchObject({ otp_attempts: 5, verified_at: null });
    expect(signer!.locked_at).toBeInstanceOf(Date);
    const types = (await chainOf(envelopeId)).map((e) => e.event_type);
    expect(types.filter((x) => x === 'signer.code_failed')).toHaveLength(5);
    expect(types.filter((x) => x === 'signer.locked')).toHaveLength(1);
  });
});

describe('fields, uploads and signing', () => {
  it('PUT …/fields validates by type; another signer’s field is a 404', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(
      org,
      documentId,
      [
        { email: 'f1@exemple.fr', fields: ['text', 'checkbox', 'date', 'email', 'signature'] },
        { email: 'f2@exemple.fr', fields: ['text'] },
      ],
      { routing_mode: 'parallel' },
    );
    const t = (await tokenOf(org, signerIds[0]!))!;
    const fields = (await state(t)).body.fields as Array<{ id: string; type: string }>;
    const id = (type: string) => fields.find((f) => f.type === type)!.id;
    expect(await fill(t, id('checkbox'), 'oui')).toMatchObject({ status: 422, body: { code: 'validation_error', field: 'value' } });
    expect(await fill(t, id('date'), '2026-13-40')).toMatchObject({ status: 422, body: { field: 'value' } });
    expect(await fill(t, id('email'), 'pas-une-adresse')).toMatchObject({ status: 422 });
    expect(await fill(t, id('signature'), 'x')).toMatchObject({ status: 422 });
    expect(await fill(t, id('text'), 'a'.repeat(1001))).toMatchObject({ status: 422 });
    const otherField = (await state((await tokenOf(org, signerIds[1]!))!)).body.fields[0].id;
    expect(await fill(t, otherField, 'x')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await fill(t, id('checkbox'), 'false')).body.fields.find((f: { type: string }) => f.type === 'checkbox').value).toBe('false');
    const ok = await fill(t, id('checkbox'), true);
    expect(ok.status).toBe(200);
    expect(ok.body.fields.find((f: { type: string }) => f.type === 'checkbox')).toMatchObject({ value: 'true', filled_at: expect.any(String) });
    expect((await fill(t, id('text'), '  Société Durand  ')).body.fields.find((f: { type: string }) => f.type === 'text').value).toBe('Société Durand');
    const filled = (await chainOf(envelopeId)).filter((e) => e.event_type === 'signer.field_filled');
    expect(filled.map((e) => e.event_data)).toEqual([
      expect.objectContaining({ field_id: id('checkbox'), value: 'false' }),
      expect.objectContaining({ field_id: id('checkbox'), value: 'true' }),
      expect.objectContaining({ field_id: id('text'), value: 'Société Durand' }),
    ]);
  });

  it('POST …/uploads stores a requested document with its SHA-256; refuses what is not a PDF or an image', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'up@exemple.fr', requested: ['Pièce d’identité'] }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const requestedId = (await state(t)).body.requested_documents[0].id;
    expect(await upload(t, requestedId, Buffer.from('hello'), 'note.txt')).toMatchObject({ status: 422, body: { field: 'file' } });
    expect(await upload(t, '00000000-0000-7000-8000-000000000000', await pdfBytes(1), 'id.pdf')).toMatchObject({ status: 422, body: { field: 'requested_document_id' } });
    const bytes = await pdfBytes(1);
    const res = await upload(t, requestedId, bytes, 'carte-identite.pdf');
    expect(res.status).toBe(200);
    expect(res.body.requested_documents[0].uploads).toEqual([
      expect.objectContaining({ name: 'carte-identite.pdf', content_type: 'application/pdf', byte_size: bytes.byteLength, sha256: sha256Hex(bytes) }),
    ]);
    const [row] = await org.db.select().from(signatureUploads).where(eq(signatureUploads.envelope_id, envelopeId));
    const stored = await getStorage().get(row!.storage_key);
    expect(sha256Hex(await readAll(stored!.body))).toBe(sha256Hex(bytes));
    const event = (await chainOf(envelopeId)).find((e) => e.event_type === 'signer.document_uploaded');
    expect(event!.event_data).toMatchObject({ requested_document_id: requestedId, sha256: sha256Hex(bytes), ip: '203.0.113.7' });
  });

  it('POST …/sign refuses until consent, code, fields and uploads are there, then signs (409 codes in that order)', async () => {
    const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email: 'sign@exemple.fr', full_name: 'Sam Signe', fields: ['text', 'signature', 'name', 'date'], requested: ['Kbis'] }]);
    const t = (await tokenOf(org, signerIds[0]!))!;
    const typed = { kind: 'typed', value: 'Sam Signe' };
    expect((await signAs(t, typed)).body.code).toBe('consent_required');
    await consent(t);
    expect((await signAs(t, typed)).body.code).toBe('verification_required');
    await askCode(t);
    await verify(t, await emailedCode(org, 'sign@exemple.fr'));
    const incomplete = await signAs(t, typed);
    expect(incomplete).toMatchObject({ status: 409, body: { code: 'fields_incomplete' } });
    const s = await state(t);
    await fill(t, s.body.fields.find((f: { type: string }) => f.type === 'text').id, 'Durand SARL');
    expect((await signAs(t, typed)).body.code).toBe('uploads_incomplete');
    await upload(t, s.body.requested_documents[0].id, await pdfBytes(1), 'kbis.pdf');
    expect(await signAs(t, { kind: 'drawn', value: 'data:image/png;base64,AAAA' })).toMatchObject({ status: 422, body: { field: 'signature.value' } });
    // Hostile drawings are refused while the signer is there, not at the seal (issue 33): the PNG magic followed by text,
    // and a 6000×6000 1-bit image of a few KB that decodes to 144 MB of pixels.
    const magicThenText = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not a png at all, only its first bytes')]);
    expect(await signAs(t, { kind: 'drawn', value: `data:image/png;base64,${magicThenText.toString('base64')}` })).toMatchObject({ status: 422, body: { field: 'signature.value' } });
    const huge = pngOf(6000, 6000, 1, 0);
    expect(huge.length).toBeLessThan(10_000);
    const hugeAnswer = await signAs(t, { kind: 'drawn', value: `data:image/png;base64,${huge.toString('base64')}` });
    expect(hugeAnswer).toMatchObject({ status: 422, body: { field: 'signature.value' } });
    expect(hugeAnswer.body.message).toContain('6000×6000');
    // A header within bounds over data that is no deflate stream: pdf-lib's decoder (the seal's) never returns on it; the
    // worker's 5 s end it, a 422, and the server served meanwhile. A truncated stream is refused at once.
    const broken = Buffer.from(pngOf(200, 100, 8, 6));
    broken.fill(0x41, 45, broken.length - 20);
    const brokenAnswer = signAs(t, { kind: 'drawn', value: `data:image/png;base64,${broken.toString('base64')}` });
    expect(await slowestHealthzWhile(brokenAnswer)).toBeLessThan(1_000);
    expect(await brokenAnswer).toMatchObject({ status: 422, body: { field: 'signature.value' } });
    const truncated = pngOf(200, 100, 8, 6).subarray(0, 50);
    expect(await signAs(t, { kind: 'drawn', value: `data:image/png;base64,${truncated.toString('base64')}` })).toMatchObject({ status: 422, body: { field: 'signature.value', message: expect.stringContaining('not a readable PNG') } });
    expect(await signAs(t, { kind: 'stamped', value: 'x' })).toMatchObject({ status: 422, body: { field: 'signature.kind' } });
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000b49444154780163f80f040009fb03fdcf0b68720000000049454e44ae426082', 'hex');
    const signed = await signAs(t, { kind: 'drawn', value: `data:image/png;base64,${png.toString('base64')}` });
    expect(signed.status).toBe(200);
    expect(signed.body.signer).toMatchObject({ status: 'signed', signed_at: expect.any(String) });
    const [row] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.id, signerIds[0]!));
    expect(row).toMatchObject({ signed_ip: '203.0.113.7', signed_user_agent: 'vitest-signer', signature_kind: 'drawn' });
    expect(signed.body.fields.find((f: { type: string }) => f.type === 'name').value).toBe('Sam Signe');
    expect(signed.body.fields.every((f: { filled_at: string | null }) => f.filled_at)).toBe(true);
    const event = (await chainOf(envelopeId)).find((e) => e.event_type === 'signer.signed');
    expect(event!.event_data).toMatchObject({ signature_kind: 'drawn', ip: '203.0.113.7', user_agent: 'vitest-signer', document_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The signer is done: their link answers 410 from now on.
    expect((await state(t)).status).toBe(410);
  });

  it('rate-limits each client address', async () => {
    process.env.SIGN_RATE_LIMIT_POINTS = '3';
    try {
      const headers = { 'x-forwarded-for': '192.0.2.55' };
      const t = 'y'.repeat(43);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(stateRoute.GET, 'GET', `/api/sign/${t}`, { params: { token: t }, headers })).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      delete process.env.SIGN_RATE_LIMIT_POINTS;
    }
  });
});

describe('the signer e-mails, in French and English', () => {
  it('the code e-mail and the declined e-mail', async () => {
    const code = { seller_name: 'Atelier Dupont', recipient_name: 'Jeanne', document_title: 'Contrat', code: '123456', valid_minutes: 10 };
    const fr = await renderEmail('signature_code', code, 'fr');
    expect(fr.subject).toBe('Votre code de signature : 123456');
    expect(fr.text).toContain('10 minutes');
    expect((await renderEmail('signature_code', code, 'en')).subject).toBe('Your signing code: 123456');
    const declined = { seller_name: 'Atelier Dupont', document_title: 'Contrat', declined_by: 'Noé Non', reason: 'Montant faux', declined_at: '2026-11-26T10:00:00.000Z', to_sender: false };
    const en = await renderEmail('signature_declined', declined, 'en');
    expect(en.subject).toBe('Signature declined: Contrat');
    expect(en.text).toContain('Noé Non declined to sign');
    expect(en.text).toContain('Montant faux');
  });
});

describe('the envelope row', () => {
  it('moves sent → in_progress at the first signer action only', async () => {
    const { envelopeId } = await sentEnvelope(org, documentId, [{ email: 'idle@exemple.fr' }]);
    const [row] = await org.db.select().from(signatureEnvelopes).where(and(eq(signatureEnvelopes.id, envelopeId), eq(signatureEnvelopes.org_id, org.org.id)));
    expect(row!.status).toBe('sent');
  });
});
