import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureDocuments, signatureEnvelopes } from '@/db/schema';
import { createActionWrappers, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { AUDIT_EVENT_TYPES, createTemplate, EnvelopePatch, FieldsPut, getEnvelope, listFields, patchEnvelope, replaceFields, SignatureTemplateCreate, verifyAuditChain } from '@/lib/domain/signature';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { clampBox, formFromEnvelope, newEnvelopeForm, newSigner, parisEndOfDay, toEnvelopePayload, toFieldsPayload, toPatchPayload } from './editor-model';
import { createEnvelopeFromForm } from './handlers';
import { AUDIT_EVENT_LABELS, envelopeActions } from './labels';
import { orgMembers } from './load';

// The editor's handler in the action wrapper (actions.ts), run under a given session.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const create = formAction(async (staff, form: FormData) => ({ data: await createEnvelopeFromForm(staff, form, { ip: '203.0.113.7', user_agent: 'vitest', user_id: staff.userId }) }));

let org: TestOrg;
let other: TestOrg;
let userId: string;
beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  const user = await createUser(org.db, { email: `signature-${org.org.id}@example.fr`, password: 'long enough password' });
  await addMembership(org.db, org.org.id, user.id, 'member');
  userId = user.id;
  session = { userId, orgId: org.org.id };
});

async function pdf(pages = 2): Promise<File> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]);
  return new File([new Uint8Array(await doc.save())], 'contrat.pdf', { type: 'application/pdf' });
}

function formOf(payload: Record<string, unknown>, file?: File) {
  const form = new FormData();
  form.set('payload', JSON.stringify(payload));
  if (file) form.set('file', file);
  return form;
}

const documentCount = async (o: TestOrg) => (await o.db.select().from(signatureDocuments).where(eq(signatureDocuments.org_id, o.org.id))).length;

describe('the envelope editor against lib/domain/signature', () => {
  it('an uploaded PDF and two signers become a draft of the staff member’s org, envelope.created by them in a verified chain', async () => {
    const form = newEnvelopeForm({
      subject: ' Contrat de prestation ',
      labels: 'contrat, 2026, contrat',
      cc_recipients: 'Compta@Exemple.fr; direction@exemple.fr',
      expires_on: '2026-12-31',
      signers: [
        { ...newSigner(1), full_name: 'Alice Martin', email: 'alice@exemple.fr' },
        { ...newSigner(2), email: 'bob@exemple.fr', verification_method: 'sms_otp', phone: '+33612345678' },
      ],
    });
    const { payload, errors } = toEnvelopePayload(form, { hasFile: true });
    expect(errors).toEqual({});
    const state = await create(initial(), formOf(payload, await pdf(3)));
    expect(state.error ?? state.errors).toBeUndefined();
    const created = state.data!;
    const envelope = await getEnvelope(org.db, org.org.id, created.id);
    expect(envelope).toMatchObject({
      status: 'draft',
      source_kind: 'document',
      subject: 'Contrat de prestation',
      labels: ['contrat', '2026'],
      cc_recipients: ['compta@exemple.fr', 'direction@exemple.fr'],
      expires_at: '2026-12-31T22:59:59.000Z',
      reminder_max_count: 1,
      reminder_interval_hours: null,
    });
    expect(envelope.signers.map((s) => [s.email, s.full_name, s.routing_order, s.verification_method, s.phone])).toEqual([
      ['alice@exemple.fr', 'Alice Martin', 1, 'email_otp', null],
      ['bob@exemple.fr', null, 2, 'sms_otp', '+33612345678'],
    ]);
    expect(envelope.audit_chain.map((e) => e.event_type)).toEqual(['envelope.created']);
    expect(envelope.audit_chain[0]!.event_data).toMatchObject({ ip: '203.0.113.7', user_agent: 'vitest', user_id: userId });
    expect(await verifyAuditChain(org.db, created.id)).toMatchObject({ ok: true, count: 1 });
    const [row] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, created.id));
    const [stored] = await org.db.select().from(signatureDocuments).where(eq(signatureDocuments.id, row!.document_id!));
    expect([stored!.org_id, stored!.page_count, stored!.name]).toEqual([org.org.id, 3, 'contrat.pdf']);
    await expect(getEnvelope(other.db, other.org.id, created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses in French beside each field, storing no PDF: a bad e-mail, sms without phone, no file, not a PDF', async () => {
    const before = await documentCount(org);
    const bad = newEnvelopeForm({ signers: [{ ...newSigner(1), email: 'pas-une-adresse', verification_method: 'sms_otp' }] });
    const refused = await create(initial(), formOf(toEnvelopePayload(bad, { hasFile: true }).payload, await pdf()));
    expect(Object.keys(refused.errors ?? {}).sort()).toEqual(['signers.0.email', 'signers.0.phone']);
    expect(refused.errors!['signers.0.email']).toMatch(/adresse e-mail|e-mail/i);

    const ok = newEnvelopeForm({ signers: [{ ...newSigner(1), email: 'alice@exemple.fr' }] });
    expect(toEnvelopePayload(ok, { hasFile: false }).errors).toEqual({ file: 'required (a PDF file)' });
    expect((await create(initial(), formOf(toEnvelopePayload(ok, { hasFile: true }).payload))).errors).toEqual({ file: 'Choisissez le PDF à faire signer.' });
    const text = new File(['hello'], 'notes.pdf', { type: 'application/pdf' });
    const notPdf = await create(initial(), formOf(toEnvelopePayload(ok, { hasFile: true }).payload, text));
    expect(notPdf.errors?.file).toBeTruthy();
    expect(await documentCount(org)).toBe(before);
  });

  it('a template fills what is left blank; what is typed wins', async () => {
    const t = await createTemplate(org.db, org.org.id, SignatureTemplateCreate.parse({ name: 'Bail', subject: 'Votre bail', message: 'Merci de signer.', labels: ['bail'], cc_recipients: ['gestion@exemple.fr'] }));
    const form = newEnvelopeForm({ template_id: t.id, labels: 'urgent', signers: [{ ...newSigner(1), email: 'locataire@exemple.fr' }] });
    const { payload } = toEnvelopePayload(form, { hasFile: true });
    expect(payload).not.toHaveProperty('subject');
    expect(payload).not.toHaveProperty('cc_recipients');
    const state = await create(initial(), formOf(payload, await pdf(1)));
    expect(state.data).toMatchObject({ subject: 'Votre bail', message: 'Merci de signer.', labels: ['urgent'], cc_recipients: ['gestion@exemple.fr'] });
  });

  it('parallel routing sends every order as 0; integers typed wrong are the schema’s to refuse', () => {
    const form = newEnvelopeForm({ routing_mode: 'parallel', reminder_interval_hours: 'douze', signers: [newSigner(3), newSigner(5)] });
    const { payload } = toEnvelopePayload(form, { hasFile: true });
    expect((payload.signers as Array<{ routing_order: number }>).map((s) => s.routing_order)).toEqual([0, 0]);
    expect(payload.reminder_interval_hours).toBe('douze');
  });
});

describe('a draft edited', () => {
  it('read back into the editor and saved unchanged it keeps its values; a signer added and a label cleared are saved', async () => {
    const form = newEnvelopeForm({
      subject: 'Avenant',
      labels: 'rh',
      expires_on: '2027-01-15',
      reminder_interval_hours: '24',
      signers: [{ ...newSigner(1), full_name: 'Alice Martin', email: 'alice@exemple.fr' }],
    });
    const draft = (await create(initial(), formOf(toEnvelopePayload(form, { hasFile: true }).payload, await pdf(1)))).data!;
    const shown = formFromEnvelope(await getEnvelope(org.db, org.org.id, draft.id));
    expect(shown).toMatchObject({ subject: 'Avenant', labels: 'rh', expires_on: '2027-01-15', reminder_interval_hours: '24', reminder_max_count: '1' });
    const same = await patchEnvelope(org.db, org.org.id, draft.id, EnvelopePatch.parse(toPatchPayload(shown)));
    expect(same).toMatchObject({ subject: 'Avenant', labels: ['rh'], expires_at: draft.expires_at, reminder_interval_hours: 24 });
    const changed = { ...shown, labels: '', signers: [...shown.signers, { ...newSigner(2), email: 'bob@exemple.fr' }] };
    const saved = await patchEnvelope(org.db, org.org.id, draft.id, EnvelopePatch.parse(toPatchPayload(changed)));
    expect(saved.labels).toEqual([]);
    expect(saved.signers.map((s) => [s.email, s.full_name, s.routing_order])).toEqual([
      ['alice@exemple.fr', 'Alice Martin', 1],
      ['bob@exemple.fr', null, 2],
    ]);
  });
});

describe('fields placed on the pages', () => {
  it('a box dropped near an edge stays on the page, and the placer’s fields are saved as PUT …/fields takes them', async () => {
    expect(clampBox({ x: 0.9, y: -0.1, width: 0.25, height: 0.07 })).toEqual({ x: 0.75, y: 0, width: 0.25, height: 0.07 });
    const state = await create(initial(), formOf(toEnvelopePayload(newEnvelopeForm({ signers: [{ ...newSigner(1), email: 'alice@exemple.fr' }] }), { hasFile: true }).payload, await pdf(2)));
    const envelope = state.data!;
    const signer = envelope.signers[0]!.id;
    const body = toFieldsPayload([
      { key: 'a', signer_id: signer, type: 'signature', page: 2, ...clampBox({ x: 0.6, y: 0.8, width: 0.25, height: 0.07 }), required: true, label: ' ' },
      { key: 'b', signer_id: signer, type: 'text', page: 1, x: 0.1, y: 0.1, width: 0.25, height: 0.035, required: false, label: 'Fonction' },
    ]);
    await replaceFields(org.db, org.org.id, envelope.id, FieldsPut.parse(body));
    const saved = (await listFields(org.db, org.org.id, envelope.id)).data;
    expect(saved.map((f) => [f.type, f.page, f.x, f.y, f.required, f.label])).toEqual([
      ['signature', 2, 0.6, 0.8, true, null],
      ['text', 1, 0.1, 0.1, false, 'Fonction'],
    ]);
  });
});

describe('page helpers', () => {
  it('the end of a Paris day, in winter and in summer', () => {
    expect(parisEndOfDay('2026-11-26')).toBe('2026-11-26T22:59:59.000Z');
    expect(parisEndOfDay('2026-07-01')).toBe('2026-07-01T21:59:59.000Z');
  });

  it('every audit event has its French label; actions follow the lifecycle', () => {
    expect(AUDIT_EVENT_TYPES.filter((t) => !AUDIT_EVENT_LABELS[t])).toEqual([]);
    expect(envelopeActions('draft')).toMatchObject({ send: true, delete: true, remind: false, cancel: false });
    expect(envelopeActions('in_progress')).toMatchObject({ send: false, remind: true, cancel: true, links: true, reactivate: false });
    expect(envelopeActions('expired')).toMatchObject({ reactivate: true, cancel: false });
    expect(envelopeActions('completed')).toMatchObject({ send: false, remind: false, cancel: false, reactivate: false });
  });

  it('the approvers’ select lists the org’s members only', async () => {
    const members = await orgMembers(org.db, org.org.id);
    expect(members.map((m) => m.id)).toContain(userId);
    expect((await orgMembers(other.db, other.org.id)).map((m) => m.id)).not.toContain(userId);
  });
});

function initial() {
  return { attempt: 0 } as const;
}
