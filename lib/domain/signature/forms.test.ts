import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as active from '@/app/v1/signature/forms/[id]/active/route';
import * as one from '@/app/v1/signature/forms/[id]/route';
import * as collection from '@/app/v1/signature/forms/route';
import { signatureDocuments, signatureForms, signatureTemplates } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

let org: TestOrg;
let other: TestOrg;
let documentId: string;
let templateId: string;

async function pdfRow(o: TestOrg) {
  const [row] = await o.db
    .insert(signatureDocuments)
    .values({ org_id: o.org.id, name: 'adhesion.pdf', storage_key: `signature/${o.org.id}/documents/x.pdf`, sha256: 'b'.repeat(64), page_count: 1, byte_size: 900 })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org);
  const [tpl] = await org.db.insert(signatureTemplates).values({ org_id: org.org.id, name: 'Adhésion', subject: 'Votre adhésion' }).returning();
  templateId = tpl!.id;
});

const create = async (o: TestOrg, body: unknown, scopes?: Parameters<TestOrg['key']>[0]) =>
  call(collection.POST, 'POST', '/v1/signature/forms', { token: await o.key(scopes), body });
const get = async (o: TestOrg, id: string) => call(one.GET, 'GET', `/v1/signature/forms/${id}`, { token: await o.key(), params: { id } });
const list = async (o: TestOrg, query: Record<string, string | number> = {}) => call(collection.GET, 'GET', '/v1/signature/forms', { token: await o.key(), query });
const remove = async (o: TestOrg, id: string) => call(one.DELETE, 'DELETE', `/v1/signature/forms/${id}`, { token: await o.key(), params: { id } });
const setActive = async (o: TestOrg, id: string, body: unknown) =>
  call(active.POST, 'POST', `/v1/signature/forms/${id}/active`, { token: await o.key(), params: { id }, body });

describe('signature forms API', () => {
  it('creates an active form with a 128-bit base62 slug and its public url; get and list return it', async () => {
    const res = await create(org, { title: ' Adhésion 2027 ', source_document_id: documentId, template_id: templateId });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Adhésion 2027',
      source_document_id: documentId,
      template_id: templateId,
      verification_method: 'email_otp',
      active: true,
    });
    expect(res.body.slug).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(res.body.url).toMatch(new RegExp(`/sign/forms/${res.body.slug}$`));
    expect((await get(org, res.body.id)).body).toEqual(res.body);
    const page = await list(org);
    expect(page.body.data.map((f: { id: string }) => f.id)).toContain(res.body.id);
    const second = await create(org, { title: 'Autre', source_document_id: documentId, verification_method: 'sms_otp' });
    expect(second.body.slug).not.toBe(res.body.slug);
    expect(second.body).toMatchObject({ template_id: null, verification_method: 'sms_otp' });
  });

  it('activates and deactivates (always 200, the value given), and filters the list by active', async () => {
    const form = (await create(org, { title: 'Bascule', source_document_id: documentId })).body;
    const off = await setActive(org, form.id, { active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: form.id, active: false });
    expect((await setActive(org, form.id, { active: false })).body.active).toBe(false);
    const inactive = await list(org, { active: 'false' });
    expect(inactive.body.data.map((f: { id: string }) => f.id)).toContain(form.id);
    expect((await list(org, { active: 'true' })).body.data.map((f: { id: string }) => f.id)).not.toContain(form.id);
    expect((await setActive(org, form.id, { active: true })).body.active).toBe(true);
    expect((await setActive(org, form.id, {})).body).toMatchObject({ code: 'validation_error', field: 'active' });
  });

  it('refuses a missing title, another org’s document or template, an unknown method, each with its field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ source_document_id: documentId }, 'title'],
      [{ title: '  ', source_document_id: documentId }, 'title'],
      [{ title: 'x', source_document_id: 'nope' }, 'source_document_id'],
      [{ title: 'x', source_document_id: await pdfRow(other) }, 'source_document_id'],
      [{ title: 'x', source_document_id: documentId, template_id: '0190b6a0-0000-7000-8000-000000000000' }, 'template_id'],
      [{ title: 'x', source_document_id: documentId, verification_method: 'fax' }, 'verification_method'],
      [{ title: 'x', source_document_id: documentId, slug: 'mine' }, 'slug'],
    ];
    for (const [body, field] of cases) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('deletes a form (204) and then it is a 404; another org sees none of it', async () => {
    const form = (await create(org, { title: 'Éphémère', source_document_id: documentId })).body;
    expect((await get(other, form.id)).status).toBe(404);
    expect((await setActive(other, form.id, { active: false })).status).toBe(404);
    expect((await remove(other, form.id)).status).toBe(404);
    expect((await list(other)).body.data).toEqual([]);
    expect((await remove(org, form.id)).status).toBe(204);
    expect((await get(org, form.id)).status).toBe(404);
    expect(await org.db.select().from(signatureForms).where(eq(signatureForms.id, form.id))).toEqual([]);
  });

  it('needs signature:write to create and signature:read to list', async () => {
    expect((await create(org, { title: 'x', source_document_id: documentId }, ['signature:read'])).status).toBe(403);
    const res = await call(collection.GET, 'GET', '/v1/signature/forms', { token: await org.key(['contacts:read']) });
    expect(res.status).toBe(403);
  });
});
