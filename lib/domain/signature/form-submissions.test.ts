import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as code from '@/app/sign/forms/[slug]/code/route';
import * as documentRoute from '@/app/sign/forms/[slug]/document/route';
import * as start from '@/app/sign/forms/[slug]/start/route';
import { emails, signatureDocuments, signatureEnvelopes, signatureFormSubmissions, signatureSigners, signatureTemplates } from '@/db/schema';
import { getStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { verifyAuditChain } from './audit';
import { FORM_LIMITS, startFormSubmission } from './form-submissions';
import { createForm, setFormActive } from './forms';
import { hashSignerToken } from './tokens';

let org: TestOrg;
let documentId: string;
let templateId: string;
let ipCounter = 0;

beforeAll(async () => {
  org = await createTestOrg('Club Lumière');
  const key = `signature/${org.org.id}/documents/form.pdf`;
  await getStorage().put(key, new TextEncoder().encode('%PDF-1.7 test'), { contentType: 'application/pdf' });
  const [doc] = await org.db
    .insert(signatureDocuments)
    .values({ org_id: org.org.id, name: 'adhesion.pdf', storage_key: key, sha256: 'd'.repeat(64), page_count: 2, byte_size: 13 })
    .returning();
  documentId = doc!.id;
  const [tpl] = await org.db.insert(signatureTemplates).values({ org_id: org.org.id, name: 'Adhésion', subject: 'Adhésion au club', labels: ['adhesion'] }).returning();
  templateId = tpl!.id;
});

/** Each test its own client address, so the per-address limit of one does not spill over another. */
const freshIp = () => `198.51.100.${++ipCounter}`;

async function post(handler: typeof start.POST, slug: string, what: string, fields: Record<string, string>, ip: string) {
  const req = new Request(`http://localhost/sign/forms/${slug}/${what}`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, 'user-agent': 'vitest-visitor' },
  });
  const res = await handler(req, { params: Promise.resolve({ slug }) });
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

const newForm = async (extra: Record<string, unknown> = {}) =>
  createForm(org.db, org.org.id, { title: 'Adhésion 2027', source_document_id: documentId, template_id: templateId, verification_method: 'email_otp', ...extra } as never);

async function codeFor(email: string): Promise<string> {
  const rows = await org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'signature_code')));
  const mine = rows.filter((r) => r.to.includes(email)).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  return (mine.at(-1)!.template_data as { code: string }).code;
}

const submissionOf = (location: string) => new URL(location, 'http://x').searchParams.get('s')!;

describe('public signature form', () => {
  it('name + e-mail → code by e-mail → the envelope is created, sent and the visitor goes to /sign/<token>', async () => {
    const form = await newForm();
    const ip = freshIp();
    const started = await post(start.POST, form.slug, 'start', { full_name: 'Léa Martin', email: 'Lea@Exemple.fr', website: '', lang: 'fr' }, ip);
    expect(started.status).toBe(303);
    expect(started.location).toMatch(new RegExp(`^/sign/forms/${form.slug}/verify\\?s=[0-9a-f-]{36}&to=l`));
    const submissionId = submissionOf(started.location);
    // Nothing counts before the code: no envelope yet.
    const [pending] = await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.id, submissionId));
    expect(pending).toMatchObject({ form_id: form.id, email: 'lea@exemple.fr', full_name: 'Léa Martin', verified_at: null, envelope_id: null, ip, user_agent: 'vitest-visitor' });
    expect(pending!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    const sent = await codeFor('lea@exemple.fr');
    expect(sent).toMatch(/^\d{6}$/);

    const wrong = await post(code.POST, form.slug, 'code', { s: submissionId, code: sent === '000000' ? '111111' : '000000', lang: 'fr' }, ip);
    expect(wrong.location).toContain('error=invalid_code');
    const ok = await post(code.POST, form.slug, 'code', { s: submissionId, code: sent, lang: 'fr' }, ip);
    expect(ok.status).toBe(303);
    const token = /^\/sign\/([A-Za-z0-9_-]{43})\?lang=fr$/.exec(ok.location)?.[1];
    expect(token).toBeTruthy();

    const [done] = await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.id, submissionId));
    expect(done!.verified_at).not.toBeNull();
    const [envelope] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, done!.envelope_id!));
    expect(envelope).toMatchObject({ status: 'sent', form_id: form.id, document_id: documentId, subject: 'Adhésion au club', labels: ['adhesion'], template_id: templateId });
    const [signer] = await org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelope!.id));
    expect(signer).toMatchObject({ email: 'lea@exemple.fr', full_name: 'Léa Martin', status: 'notified', token_hash: hashSignerToken(token!) });
    // The form's code proved the e-mail: the signer is verified, and the chain says how.
    expect(signer!.verified_at).not.toBeNull();
    const chain = await verifyAuditChain(org.db, envelope!.id);
    expect(chain).toMatchObject({ ok: true });

    // The same code again (a double click, a reload) leads to the same envelope, nothing twice.
    const again = await post(code.POST, form.slug, 'code', { s: submissionId, code: sent, lang: 'en' }, ip);
    expect(again.location).toBe(`/sign/${token}?lang=en`);
    expect(await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.form_id, form.id))).toHaveLength(1);
  });

  it('an inactive or unknown form creates nothing and says so; the PDF is served for an active form only', async () => {
    const form = await newForm();
    const doc = await documentRoute.GET(new Request('http://localhost/x'), { params: Promise.resolve({ slug: form.slug }) });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(await doc.text()).toBe('%PDF-1.7 test');
    await setFormActive(org.db, org.org.id, form.id, false);
    const res = await post(start.POST, form.slug, 'start', { full_name: 'Max', email: 'max@exemple.fr' }, freshIp());
    expect(res.location).toBe(`/sign/forms/${form.slug}?lang=fr&error=form_inactive`);
    expect((await documentRoute.GET(new Request('http://localhost/x'), { params: Promise.resolve({ slug: form.slug }) })).status).toBe(404);
    const unknown = await post(start.POST, '0123456789abcdefABCDEF', 'start', { full_name: 'Max', email: 'max@exemple.fr' }, freshIp());
    expect(unknown.location).toContain('error=not_found');
    expect(await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.form_id, form.id))).toEqual([]);
  });

  it('a likely typo in the e-mail is pointed out on the code page (its domain only in the URL)', async () => {
    const form = await newForm();
    const res = await post(start.POST, form.slug, 'start', { full_name: 'Jean', email: 'jean@gmial.com' }, freshIp());
    expect(new URL(res.location, 'http://x').searchParams.get('suggest')).toBe('gmail.com');
    const fine = await post(start.POST, form.slug, 'start', { full_name: 'Jeanne', email: 'jeanne@gmail.com' }, freshIp());
    expect(fine.location).not.toContain('suggest=');
  });

  it('a filled honeypot is led on as if accepted, but nothing is recorded nor sent', async () => {
    const form = await newForm();
    const res = await post(start.POST, form.slug, 'start', { full_name: 'Bot', email: 'bot@exemple.fr', website: 'http://spam.example' }, freshIp());
    expect(res.location).toMatch(/\/verify\?s=/);
    expect(await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.form_id, form.id))).toEqual([]);
    const mails = await org.db.select().from(emails).where(eq(emails.org_id, org.org.id));
    expect(mails.some((m) => m.to.includes('bot@exemple.fr'))).toBe(false);
  });

  it('refuses a bad e-mail with its field, asks a phone for sms_otp, and locks a submission after 5 wrong codes', async () => {
    const form = await newForm();
    const ip = freshIp();
    expect((await post(start.POST, form.slug, 'start', { full_name: 'Zoé', email: 'zoe@' }, ip)).location).toContain('error=validation_error&field=email');
    const sms = await newForm({ verification_method: 'sms_otp' });
    expect((await post(start.POST, sms.slug, 'start', { full_name: 'Zoé', email: 'zoe@exemple.fr', phone: '' }, ip)).location).toContain('field=phone');
    const started = await post(start.POST, form.slug, 'start', { full_name: 'Zoé', email: 'zoe@exemple.fr' }, ip);
    const s = submissionOf(started.location);
    const right = await codeFor('zoe@exemple.fr');
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await post(code.POST, form.slug, 'code', { s, code: wrong }, ip)).location).toContain('error=invalid_code');
    expect((await post(code.POST, form.slug, 'code', { s, code: right }, ip)).location).toContain('error=signer_locked');
    expect(await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.form_id, form.id))).toEqual([]);
  });

  it('refuses a control character in any field with its field (NUL was a 500, ESC was kept), recording nothing', async () => {
    const form = await newForm();
    const ip = freshIp();
    for (const full_name of ['Zoé\u0000', 'Zo\u001bé']) {
      const refused = await post(start.POST, form.slug, 'start', { full_name, email: 'zoe.ctrl@exemple.fr', lang: 'fr' }, ip);
      expect(refused).toEqual({ status: 303, location: `/sign/forms/${form.slug}?lang=fr&error=validation_error&field=full_name` });
    }
    await expect(startFormSubmission(org.db, form.slug, { full_name: 'Zoé', email: 'zoe.ctrl@exemple.fr', phone: '\u0007' }, { ip, userAgent: null, lang: 'fr' })).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
      field: 'phone',
    });
    expect(await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.form_id, form.id))).toEqual([]);
    // Tabs and line breaks are no control characters for the API (notes keep them); a name is trimmed of them.
    expect((await post(start.POST, form.slug, 'start', { full_name: '\tZoé\n', email: 'zoe.ctrl@exemple.fr' }, ip)).location).toContain('/verify?');
  });

  it('refuses an e-mail beyond RFC 5321: 64 characters before the @, 254 in all', async () => {
    const form = await newForm();
    const ip = freshIp();
    const long = await post(start.POST, form.slug, 'start', { full_name: 'Zoé', email: `${'z'.repeat(65)}@exemple.fr` }, ip);
    expect(long.location).toContain('error=validation_error&field=email');
    expect((await post(start.POST, form.slug, 'start', { full_name: 'Zoé', email: `${'z'.repeat(64)}@exemple.fr` }, ip)).location).toContain('/verify?');
  });

  it('limits starts per client address and per form', async () => {
    const form = await newForm();
    const ip = freshIp();
    for (let i = 0; i < FORM_LIMITS.startsPerAddress; i++) {
      expect((await post(start.POST, form.slug, 'start', { full_name: `V${i}`, email: `v${i}@exemple.fr` }, ip)).location).toContain('/verify?');
    }
    const limited = await post(start.POST, form.slug, 'start', { full_name: 'V', email: 'v@exemple.fr' }, ip);
    expect(limited.location).toContain('error=rate_limited');
    // Per form: many addresses together cannot flood one form (a lower ceiling for the test).
    const saved = FORM_LIMITS.startsPerForm;
    FORM_LIMITS.startsPerForm = 2;
    try {
      const busy = await newForm();
      expect((await post(start.POST, busy.slug, 'start', { full_name: 'A', email: 'a@exemple.fr' }, freshIp())).location).toContain('/verify?');
      expect((await post(start.POST, busy.slug, 'start', { full_name: 'B', email: 'b@exemple.fr' }, freshIp())).location).toContain('/verify?');
      expect((await post(start.POST, busy.slug, 'start', { full_name: 'C', email: 'c@exemple.fr' }, freshIp())).location).toContain('error=rate_limited');
      expect(await org.db.select().from(signatureFormSubmissions).where(eq(signatureFormSubmissions.form_id, busy.id))).toHaveLength(2);
    } finally {
      FORM_LIMITS.startsPerForm = saved;
    }
  });
});
