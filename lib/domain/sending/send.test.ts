import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentRenders, documents } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { documentRow, eventsOf, line } from '@/lib/domain/documents/testing';
import { rowOf } from '@/lib/domain/contacts/testing';
import { sendEmailJob } from '@/lib/platform/email';
import { attachmentRows, emailRow, type FakeResend, startFakeResend, useResend } from '@/lib/platform/email/testing';
import { renderStoredDocument } from '@/lib/domain/pdf';
import { getStorage, readAll, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { documentEmails, reminderRows, remindersContext, useTempStorage } from '@/lib/domain/reminders/testing';
import { previewSend, SendDocumentInput } from '.';

let org: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let cleanup: () => Promise<void>;
let fake: FakeResend;
beforeAll(async () => {
  cleanup = await useTempStorage();
  fake = await startFakeResend();
  org = await createTestOrg();
  api = await remindersContext(org);
  client = await api.contact({ email: 'compta@client.example', first_name: 'Jeanne', last_name: 'Martin' });
});
afterAll(async () => {
  await fake.close();
  await cleanup();
});

const today = () => todayParis();
const invoice = (body: Record<string, unknown> = {}, contactId = client.id) =>
  api.issued({ type: 'facture', contact_id: contactId, due_date: addDays(today(), 30), items: [line('Audit', '2', 45000)], ...body });

describe('POST /v1/invoices/{id}/send', () => {
  it('e-mails the invoice with its PDF, flips it to sent, sets sent_at, arms the ladder and writes invoice.sent in one go', async () => {
    const inv = await invoice();
    expect(inv.render_status).toBe('pending');
    const res = await api.send(inv.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ document: expect.objectContaining({ id: inv.id, status: 'sent', number: inv.number }), scheduled_reminders: 5, sent: true });
    expect(res.body.document.sent_at).toMatch(/Z$/);
    expect(res.body.document.items).toHaveLength(1);

    // The PDF was not rendered yet: rendered now by the render job's own function, stored once, and attached.
    const [render] = await org.db.select().from(documentRenders).where(eq(documentRenders.document_id, inv.id));
    expect((await documentRow(org.db, inv.id))!.render_status).toBe('ready');
    const [email] = await documentEmails(org, inv.id);
    expect(email).toMatchObject({
      to: ['compta@client.example'],
      cc: [],
      template: 'document_sent',
      language: 'fr',
      transport: 'outbox',
      status: 'queued',
      subject: `Facture ${inv.number} – ${org.org.name}`,
      attachments: [{ filename: `${inv.number}.pdf`, content_type: 'application/pdf', size: render!.size, storage_key: null }],
    });
    expect(email!.text).toContain('Bonjour Jeanne Martin,');
    expect(email!.template_data).toMatchObject({ document_type: 'facture', amount_cents: 108000, due_date: inv.due_date });

    const ladder = await reminderRows(org, inv.id);
    expect(ladder.map((r) => [r.kind, r.step, r.offset_days, r.status, r.tone])).toEqual([
      ['payment', 0, -3, 'pending', 'gentle'],
      ['payment', 1, 1, 'pending', 'firm'],
      ['payment', 2, 7, 'pending', 'firm'],
      ['payment', 3, 15, 'pending', 'firm'],
      ['payment', 4, 30, 'pending', 'final'],
    ]);
    // Each step at 9:00 in Paris on its day.
    expect(ladder[0]!.scheduled_at.toLocaleString('fr-FR', { timeZone: 'Europe/Paris' })).toBe(
      `${addDays(inv.due_date, -3).split('-').reverse().join('/')} 09:00:00`,
    );

    const [event] = await eventsOf(org, 'invoice.sent');
    expect(event!.payload).toEqual({ object: res.body.document });
  });

  it('attaches the stored PDF, byte for byte, when it is ready', async () => {
    const inv = await invoice();
    await renderStoredDocument(org.db, org.org.id, inv.id);
    const [render] = await org.db.select().from(documentRenders).where(eq(documentRenders.document_id, inv.id));
    const stored = await readAll((await getStorage().get(render!.storage_key!))!.body);

    const restore = useResend(fake);
    try {
      expect((await api.send(inv.id)).status).toBe(200);
    } finally {
      restore();
    }
    const [email] = await documentEmails(org, inv.id);
    expect(email!.transport).toBe('resend');
    const [bytes] = await attachmentRows(org.db, email!.id);
    expect(Buffer.compare(bytes!.content, stored)).toBe(0);
  });

  it('renders a PDF not ready yet, stores it once, and attaches the stored file byte for byte', async () => {
    const inv = await invoice();
    const restore = useResend(fake);
    try {
      expect((await api.send(inv.id)).status).toBe(200);
    } finally {
      restore();
    }
    const [render] = await org.db.select().from(documentRenders).where(eq(documentRenders.document_id, inv.id));
    const stored = await readAll((await getStorage().get(render!.storage_key!))!.body);
    const [email] = await documentEmails(org, inv.id);
    expect(email!.attachments).toEqual([{ filename: `${inv.number}.pdf`, content_type: 'application/pdf', size: stored.length, storage_key: null }]);
    const [bytes] = await attachmentRows(org.db, email!.id);
    expect(Buffer.compare(bytes!.content, stored)).toBe(0);
    expect(sha256Hex(bytes!.content)).toBe(render!.sha256);
  });

  it('takes email, cc, subject and message for this send only; the contact keeps its address', async () => {
    const inv = await invoice();
    const res = await api.send(inv.id, {
      email: '  Direction@Client.example ',
      cc: ['associe@client.example', 'direction@client.example'],
      subject: 'Votre facture de mars',
      message: 'Merci pour votre confiance.',
    });
    expect(res.status).toBe(200);
    const [email] = await documentEmails(org, inv.id);
    expect(email).toMatchObject({ to: ['direction@client.example'], cc: ['associe@client.example'], subject: 'Votre facture de mars' });
    expect(email!.text).toContain('Merci pour votre confiance.');
    expect((await rowOf(org, client.id))!.email).toBe('compta@client.example');

    const blank = await invoice();
    expect((await api.send(blank.id, { email: '   ', subject: ' ', cc: null })).status).toBe(200);
    const [second] = await documentEmails(org, blank.id);
    expect(second).toMatchObject({ to: ['compta@client.example'], subject: `Facture ${blank.number} – ${org.org.name}` });
  });

  it('sent again: a second e-mail, sent_at and the ladder unchanged (scheduled_reminders 0)', async () => {
    const inv = await invoice();
    const first = (await api.send(inv.id)).body;
    const again = await api.send(inv.id, { email: 'autre@client.example' });
    expect(again.body).toMatchObject({ scheduled_reminders: 0, sent: true, document: { status: 'sent', sent_at: first.document.sent_at } });
    expect(await documentEmails(org, inv.id)).toHaveLength(2);
    expect(await reminderRows(org, inv.id)).toHaveLength(5);
    expect(await eventsOf(org, 'invoice.sent').then((e) => e.filter((x) => (x.payload as { object: { id: string } }).object.id === inv.id))).toHaveLength(2);
  });

  it('a paid invoice can be sent again: it stays paid and nothing is armed', async () => {
    const inv = await invoice();
    await api.pay(inv.id, { amount: inv.total_ttc });
    const res = await api.send(inv.id);
    expect(res.body).toMatchObject({ scheduled_reminders: 0, document: { status: 'paid', sent_at: expect.stringMatching(/Z$/) } });
    expect(await reminderRows(org, inv.id)).toEqual([]);
  });

  it('skips the steps already past: an invoice sent late gets the rest of its ladder', async () => {
    const inv = await invoice({ due_date: addDays(today(), 2) });
    const res = await api.send(inv.id);
    expect(res.body.scheduled_reminders).toBe(4);
    expect((await reminderRows(org, inv.id)).map((r) => [r.offset_days, r.status, r.reason])).toEqual([
      [-3, 'skipped', 'past_at_send'],
      [1, 'pending', null],
      [7, 'pending', null],
      [15, 'pending', null],
      [30, 'pending', null],
    ]);
  });

  it('arms nothing for a credit note, an invoice without due date, or a fully past ladder', async () => {
    const inv = await invoice();
    await api.cancel(inv.id);
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, inv.id));
    const sentCredit = await api.send(credit!.id);
    expect(sentCredit.body).toMatchObject({ scheduled_reminders: 0, document: { type: 'avoir', status: 'sent' } });
    const [creditEmail] = await documentEmails(org, credit!.id);
    expect(creditEmail!.template_data).toMatchObject({ document_type: 'avoir', credited_document_number: inv.number });

    const noDue = await invoice({ due_date: null });
    expect((await api.send(noDue.id)).body.scheduled_reminders).toBe(0);
    expect(await reminderRows(org, noDue.id)).toEqual([]);

    const quote = await api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(today(), 1), items: [line('A', '1', 100)] });
    const res = await api.send(quote.id);
    expect(res.body).toMatchObject({ scheduled_reminders: 0, document: { status: 'sent' } });
    expect((await reminderRows(org, quote.id)).map((r) => [r.kind, r.status, r.reason])).toEqual([
      ['quote_expiry', 'skipped', 'past_at_send'],
      ['quote_expiry', 'skipped', 'past_at_send'],
    ]);
  });

  it('arms the quote-expiry ladder of a quote, relative to its validity date', async () => {
    const quote = await api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(today(), 30), items: [line('A', '1', 100)] });
    expect((await api.send(quote.id)).body.scheduled_reminders).toBe(2);
    expect((await reminderRows(org, quote.id)).map((r) => [r.kind, r.offset_days, r.status, r.tone])).toEqual([
      ['quote_expiry', -7, 'pending', null],
      ['quote_expiry', -2, 'pending', null],
    ]);
    const [email] = await documentEmails(org, quote.id);
    expect(email!.template_data).toMatchObject({ document_type: 'devis', validity_date: quote.validity_date });
  });

  it("writes in the contact's preferred language", async () => {
    const english = await api.contact({ company: 'Acme Ltd', email: 'ap@acme.example', preferred_language: 'en', country: 'GB' });
    const inv = await invoice({}, english.id);
    await api.send(inv.id);
    const [email] = await documentEmails(org, inv.id);
    expect(email).toMatchObject({ language: 'en', subject: `Invoice ${inv.number} from ${org.org.name}` });
    expect(email!.text).toContain('Hello,');
  });

  it('422 no_recipient when the contact has no address and none is given; an address given is enough', async () => {
    const silent = await api.contact({ company: 'Sans Mail SARL' });
    const inv = await invoice({}, silent.id);
    const res = await api.send(inv.id);
    expect([res.status, res.body.code, res.body.field]).toEqual([422, 'no_recipient', 'email']);
    expect((await documentRow(org.db, inv.id))!.status).toBe('finalized');
    expect(await documentEmails(org, inv.id)).toEqual([]);
    expect((await api.send(inv.id, { email: 'gerant@sansmail.example' })).status).toBe(200);
  });

  it('409 not_finalized for a draft, 409 invalid_transition for a cancelled document', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    const res = await api.send(draft.id);
    expect([res.status, res.body.code]).toEqual([409, 'not_finalized']);
    const inv = await invoice();
    await api.cancel(inv.id);
    const cancelled = await api.send(inv.id);
    expect([cancelled.status, cancelled.body.code]).toEqual([409, 'invalid_transition']);
  });
});

describe('previewSend (the send dialog\'s "Aperçu")', () => {
  it('shows the e-mail the send would write — recipient, subject, text with the message — and sends nothing', async () => {
    const inv = await invoice();
    const preview = await previewSend(org.db, org.org.id, inv.id, SendDocumentInput.parse({ cc: ['associe@client.example'], message: 'Bonjour Jeanne,\n\nComme convenu.' }));
    expect(preview).toMatchObject({ to: 'compta@client.example', cc: ['associe@client.example'], language: 'fr', subject: expect.stringContaining(inv.number) });
    expect(preview.text).toContain('Comme convenu.');
    // Her own greeting replaces ours: one "Bonjour".
    expect(preview.text.match(/Bonjour/g)).toHaveLength(1);
    expect(await documentEmails(org, inv.id)).toEqual([]);
    expect((await documentRow(org.db, inv.id))!.status).toBe('finalized');
    // A subject typed replaces the template's.
    expect((await previewSend(org.db, org.org.id, inv.id, SendDocumentInput.parse({ subject: 'Votre facture' }))).subject).toBe('Votre facture');
  });

  it('refuses what the send would refuse: a draft (409), no address (422 no_recipient), another org\'s document (404)', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('Audit', '1', 100)] });
    await expect(previewSend(org.db, org.org.id, draft.id, SendDocumentInput.parse({}))).rejects.toMatchObject({ status: 409 });
    const silent = await api.contact({ company: 'Sans Adresse SARL' });
    const inv = await invoice({}, silent.id);
    await expect(previewSend(org.db, org.org.id, inv.id, SendDocumentInput.parse({}))).rejects.toMatchObject({ status: 422, code: 'no_recipient' });
    const other = await createTestOrg();
    await expect(previewSend(other.db, other.org.id, inv.id, SendDocumentInput.parse({}))).rejects.toMatchObject({ status: 404 });
  });
});

describe('through Resend (the real SDK against the local fake)', () => {
  it('the job hands the e-mail and its PDF to Resend under the e-mail id as idempotency key', async () => {
    const inv = await invoice();
    const restore = useResend(fake);
    try {
      expect((await api.send(inv.id)).status).toBe(200);
      const [email] = await documentEmails(org, inv.id);
      fake.reset();
      await sendEmailJob.handle({ email_id: email!.id }, { db: org.db, jobId: 'test', attempt: 1 });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]!.headers['idempotency-key']).toBe(email!.id);
      expect(fake.requests[0]!.body).toMatchObject({
        to: ['compta@client.example'],
        attachments: [{ filename: `${inv.number}.pdf`, content_type: 'application/pdf', content: expect.any(String) }],
      });
      expect(Buffer.from(fake.requests[0]!.body.attachments[0].content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
      expect(await emailRow(org.db, email!.id)).toMatchObject({ status: 'sent', provider_id: fake.accepted[0] });
    } finally {
      restore();
    }
  });
});
