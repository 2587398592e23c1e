import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oneEnvelope from '@/app/v1/signature/envelopes/[id]/route';
import * as envelopes from '@/app/v1/signature/envelopes/route';
import * as uploadRoute from '@/app/v1/signature/documents/route';
import { signatureDocuments, signatureFields, signatureSigners } from '@/db/schema';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { parseTag, type TextTag } from './text-tags';

let dir = '';
let org: TestOrg;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-tags-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg();
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Drawn {
  text: string;
  page: number;
  x: number;
  y: number;
  size: number;
}
/** A PDF with these texts drawn at known places (pdf-lib, Helvetica), and each text's width as the font measures it. */
async function pdfWith(texts: Drawn[], pages: Array<[number, number]> = [[595, 842]]) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const made = pages.map((size) => doc.addPage(size));
  for (const t of texts) made[t.page - 1]!.drawText(t.text, { x: t.x, y: t.y, size: t.size, font });
  return { bytes: await doc.save(), width: (text: string, size: number) => font.widthOfTextAtSize(text, size) };
}

async function upload(bytes: Uint8Array) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'contrat.pdf');
  const req = new Request('http://localhost:3000/v1/signature/documents', { method: 'POST', headers: { authorization: `Bearer ${await org.key()}` }, body: form });
  const res = await uploadRoute.POST(req, { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}
const tagsOf = async (id: string) => (await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.id, id)))[0]!.text_tags as TextTag[];
const createEnvelope = async (documentId: string, signerCount: number) =>
  call(envelopes.POST, 'POST', '/v1/signature/envelopes', {
    token: await org.key(),
    body: {
      source_kind: 'document',
      source_document_id: documentId,
      signers: Array.from({ length: signerCount }, (_, i) => ({ email: `signataire${i + 1}@exemple.fr`, routing_order: i })),
    },
  });

describe('the tag syntax', () => {
  it('type:signer[:label][:required|optional], with each type’s default', () => {
    expect(parseTag('signature:1')).toEqual({ type: 'signature', signer: 1, label: null, required: true });
    expect(parseTag('date:2')).toEqual({ type: 'date', signer: 2, label: null, required: true });
    expect(parseTag('text:1:Fonction:required')).toEqual({ type: 'text', signer: 1, label: 'Fonction', required: true });
    expect(parseTag('text:3:Commentaire')).toEqual({ type: 'text', signer: 3, label: 'Commentaire', required: false });
    expect(parseTag('checkbox:1:required')).toEqual({ type: 'checkbox', signer: 1, label: null, required: true });
    expect(parseTag('initials:2:optional')).toEqual({ type: 'initials', signer: 2, label: null, required: false });
    for (const inner of ['sign:1', 'signature', 'signature:0', 'signature:x', 'signature:51', 'text:1::required', 'text:1:a:b:required', '', 'name:1:a:b'])
      expect(typeof parseTag(inner), inner).toBe('string');
  });
});

describe('text tags at upload', () => {
  it('are found on every page at their place, within 1 pt, and kept with the document', async () => {
    const texts: Drawn[] = [
      { text: '{{signature:1}}', page: 1, x: 100, y: 200, size: 12 },
      { text: '{{date:2}}', page: 1, x: 400.5, y: 200.25, size: 10 },
      { text: '{{text:1:Fonction:required}}', page: 2, x: 72, y: 650, size: 11 },
      { text: '{{checkbox:2:optional}}', page: 2, x: 300, y: 90, size: 14 },
    ];
    const pages: Array<[number, number]> = [
      [595, 842],
      [612, 792],
    ];
    const { bytes, width } = await pdfWith(texts, pages);
    const res = await upload(bytes);
    expect(res.status).toBe(201);
    const tags = await tagsOf(res.body.id);
    expect(tags.map((t) => [t.tag, t.type, t.signer, t.label, t.required, t.page])).toEqual([
      ['{{signature:1}}', 'signature', 1, null, true, 1],
      ['{{date:2}}', 'date', 2, null, true, 1],
      ['{{text:1:Fonction:required}}', 'text', 1, 'Fonction', true, 2],
      ['{{checkbox:2:optional}}', 'checkbox', 2, null, false, 2],
    ]);
    for (const [i, t] of tags.entries()) {
      const drawn = texts[i]!;
      const [pw, ph] = pages[drawn.page - 1]!;
      // The box (origin top-left): from the tag's left edge, its top one font size above the baseline, its width the text's.
      expect(Math.abs(t.x * pw - drawn.x), `${t.tag} x`).toBeLessThanOrEqual(1);
      expect(Math.abs(t.y * ph - (ph - drawn.y - drawn.size)), `${t.tag} y`).toBeLessThanOrEqual(1);
      expect(Math.abs(t.width * pw - width(drawn.text, drawn.size)), `${t.tag} width`).toBeLessThanOrEqual(1);
      // Down to a quarter of the font size below the baseline, so the braces' descent is covered too.
      expect(Math.abs((t.y + t.height) * ph - (ph - drawn.y + drawn.size * 0.25)), `${t.tag} bottom`).toBeLessThanOrEqual(1);
    }
  });

  it('a tag inside a sentence is placed by its characters’ share of the run', async () => {
    const { bytes, width } = await pdfWith([{ text: 'Fait à Paris, signature : {{signature:1}}', page: 1, x: 50, y: 300, size: 10 }]);
    const res = await upload(bytes);
    expect(res.status).toBe(201);
    const [tag] = await tagsOf(res.body.id);
    expect(tag).toMatchObject({ type: 'signature', signer: 1, page: 1 });
    // Proportional, not exact: within a few points of where the font puts it.
    expect(Math.abs(tag!.x * 595 - (50 + width('Fait à Paris, signature : ', 10)))).toBeLessThanOrEqual(6);
  });

  it('a malformed tag is a 422 invalid_text_tag naming it and its page; nothing is kept', async () => {
    const before = (await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, org.org.id))).length;
    for (const [text, why] of [
      ['{{sign:1}}', /unknown type "sign"/],
      ['{{signature:0}}', /signer must be from 1/],
      ['{{text:1:Fonction:obligatoire:x}}', /too many parts/],
      ['Nom : {{name:1', /no closing/],
    ] as const) {
      const { bytes } = await pdfWith([
        { text: '{{signature:1}}', page: 1, x: 50, y: 100, size: 12 },
        { text, page: 2, x: 50, y: 500, size: 12 },
      ], [
        [595, 842],
        [595, 842],
      ]);
      const res = await upload(bytes);
      expect(res.status, text).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_text_tag', field: 'file' });
      expect(res.body.message).toContain(text.slice(text.indexOf('{{')));
      expect(res.body.message).toContain('page 2');
      expect(res.body.message).toMatch(why);
    }
    expect((await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, org.org.id))).length).toBe(before);
  });
});

describe('text tags become fields', () => {
  it('for the Nth signer of the request, origin tag, the box of the tag', async () => {
    const { bytes } = await pdfWith([
      { text: '{{signature:1}}', page: 1, x: 100, y: 200, size: 12 },
      { text: '{{signature:2}}', page: 1, x: 350, y: 200, size: 12 },
      { text: '{{text:2:Fonction:required}}', page: 1, x: 350, y: 150, size: 12 },
    ]);
    const doc = (await upload(bytes)).body;
    const res = await createEnvelope(doc.id, 2);
    expect(res.status).toBe(201);
    const [first, second] = res.body.signers as Array<{ id: string }>;
    const fields = await org.db.select().from(signatureFields).where(eq(signatureFields.envelope_id, res.body.id)).orderBy(asc(signatureFields.position));
    const tags = await tagsOf(doc.id);
    expect(fields.map((f) => [f.signer_id, f.type, f.label, f.required, f.origin, f.page])).toEqual([
      [first!.id, 'signature', null, true, 'tag', 1],
      [second!.id, 'signature', null, true, 'tag', 1],
      [second!.id, 'text', 'Fonction', true, 'tag', 1],
    ]);
    for (const [i, f] of fields.entries()) expect({ x: f.x, y: f.y, width: f.width, height: f.height }).toEqual({ x: tags[i]!.x, y: tags[i]!.y, width: tags[i]!.width, height: tags[i]!.height });
  });

  it('a tag naming a signer the envelope lacks: 422 on signers, nothing created', async () => {
    const { bytes } = await pdfWith([{ text: '{{initials:3}}', page: 1, x: 100, y: 100, size: 12 }]);
    const doc = (await upload(bytes)).body;
    const before = (await org.db.select().from(signatureSigners).where(eq(signatureSigners.org_id, org.org.id))).length;
    const res = await createEnvelope(doc.id, 2);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'signers' });
    expect(res.body.message).toMatch(/signer 3/);
    expect(await org.db.select().from(signatureSigners).where(eq(signatureSigners.org_id, org.org.id))).toHaveLength(before);
  });

  it('PATCH replacing the signers places the tags again on the new ones; too few signers is a 422, nothing changed', async () => {
    const { bytes } = await pdfWith([
      { text: '{{signature:1}}', page: 1, x: 100, y: 200, size: 12 },
      { text: '{{initials:2:optional}}', page: 1, x: 350, y: 200, size: 12 },
    ]);
    const doc = (await upload(bytes)).body;
    const made = await createEnvelope(doc.id, 2);
    expect(made.status).toBe(201);
    const patch = async (emails: string[]) =>
      call(oneEnvelope.PATCH, 'PATCH', `/v1/signature/envelopes/${made.body.id}`, {
        token: await org.key(),
        params: { id: made.body.id },
        body: { signers: emails.map((email, i) => ({ email, routing_order: i })) },
      });
    const fieldsOf = () => org.db.select().from(signatureFields).where(eq(signatureFields.envelope_id, made.body.id)).orderBy(asc(signatureFields.position));
    const res = await patch(['nouvelle1@exemple.fr', 'nouvelle2@exemple.fr']);
    expect(res.status).toBe(200);
    const [first, second] = res.body.signers as Array<{ id: string; email: string }>;
    expect(first!.email).toBe('nouvelle1@exemple.fr');
    expect((await fieldsOf()).map((f) => [f.signer_id, f.type, f.required, f.origin])).toEqual([
      [first!.id, 'signature', true, 'tag'],
      [second!.id, 'initials', false, 'tag'],
    ]);
    const refused = await patch(['seule@exemple.fr']);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'signers' });
    // Rolled back: the signers and fields of the previous PATCH stay.
    expect((await fieldsOf()).map((f) => f.signer_id)).toEqual([first!.id, second!.id]);
  });

  it('a PDF without tags: no field', async () => {
    const { bytes } = await pdfWith([{ text: 'Contrat sans balise {accolade}', page: 1, x: 50, y: 700, size: 12 }]);
    const doc = (await upload(bytes)).body;
    expect(await tagsOf(doc.id)).toEqual([]);
    const res = await createEnvelope(doc.id, 1);
    expect(res.status).toBe(201);
    expect(await org.db.select().from(signatureFields).where(eq(signatureFields.envelope_id, res.body.id))).toEqual([]);
  });
});
