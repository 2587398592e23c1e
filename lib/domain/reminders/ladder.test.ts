import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contacts, documents, emails, orgs, reminders } from '@/db/schema';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { sendEmailJob } from '@/lib/platform/email';
import { MAX_SEND_ATTEMPTS } from '@/lib/platform/email';
import { EmailRetryError } from '@/lib/platform/email';
import { emailRow, type FakeResend, startFakeResend, useResend } from '@/lib/platform/email/testing';
import { jobs as jobDefinitions } from '@/lib/composition/modules';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { DISPATCH_RETRY_MS, dispatchDueReminders, MAX_DISPATCH_ATTEMPTS } from './dispatch';
import { dispatchRemindersJob } from './jobs';
import { ladderSteps, parisInstant } from './ladder';
import { addManualReminder } from './reminders';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { documentEmails, ladderRow, reminderRows, remindersContext, useTempStorage } from './testing';
import { reminderTracking } from './tracking';

/**
 * The ladder through time, with the clock in the tests' hands: documents issued and sent on Monday 11 January
 * 2027 at 10:00 in Paris, due ten days later (21 January), and the dispatcher run at chosen instants.
 * Default ladder: -3 (18 Jan), +1 (22 Jan), +7 (28 Jan), +15 (5 Feb), +30 (20 Feb), each at 9:00 in Paris.
 */
const T0 = parisInstant('2027-01-11', 10);
const at = (day: string, hour = 10) => parisInstant(day, hour);

let org: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let cleanup: () => Promise<void>;
let fake: FakeResend;
beforeAll(async () => {
  cleanup = await useTempStorage();
  fake = await startFakeResend();
});
// A fresh org per test: the dispatcher's counts are then this test's alone.
beforeEach(async () => {
  org = await createTestOrg();
  api = await remindersContext(org);
  client = await api.contact({ email: 'compta@client.example', first_name: 'Jeanne', last_name: 'Martin' });
});
afterAll(async () => {
  await fake.close();
  await cleanup();
});

const dispatch = (now: Date, batchSize?: number) => dispatchDueReminders(org.db, { now, orgId: org.org.id, batchSize });
/** An invoice of 120.00 TTC issued at T0, due on 21 January 2027, sent at T0. */
async function sentInvoice(contactId = client.id, amount = 10000) {
  const inv = await api.issuedAt(T0, contactId, { dueInDays: 10, amount });
  const sent = await sendDocument(org.db, org.org.id, inv.id, SendDocumentInput.parse({}), T0);
  expect(sent.scheduled_reminders).toBe(5);
  return sent.document;
}
const reminderEmails = async (documentId: string) => (await documentEmails(org, documentId)).filter((e) => e.template !== 'document_sent');
const statuses = async (documentId: string) => (await reminderRows(org, documentId)).map((r) => [r.status, r.reason]);

describe('the payment ladder through time', () => {
  it('sends each step when it comes, once, its tone escalating: gentle, firm, firm, firm, final', async () => {
    const inv = await sentInvoice();
    expect(inv.due_date).toBe('2027-01-21');

    expect(await dispatch(at('2027-01-18', 8))).toEqual({ sent: 0, skipped: 0, cancelled: 0, failed: 0 });
    expect(await dispatch(at('2027-01-18', 9))).toEqual({ sent: 1, skipped: 0, cancelled: 0, failed: 0 });
    // Run again at the same instant (or by a second worker): nothing more.
    expect(await dispatch(at('2027-01-18', 9))).toMatchObject({ sent: 0 });
    let [first] = await reminderEmails(inv.id);
    expect(first).toMatchObject({
      template: 'payment_reminder',
      to: ['compta@client.example'],
      language: 'fr',
      subject: `Petit rappel : facture ${inv.number} à échéance le 21 janvier 2027 – ${org.org.name}`,
      template_data: expect.objectContaining({ tone: 'gentle', amount_due_cents: 12000, due_date: '2027-01-21', business_client: true }),
    });
    expect(first!.text).toContain('Bonjour Jeanne Martin,');

    for (const day of ['2027-01-22', '2027-01-28', '2027-02-05', '2027-02-20']) expect((await dispatch(at(day))).sent).toBe(1);
    const sent = await reminderEmails(inv.id);
    expect(sent.map((e) => (e.template_data as { tone: string }).tone)).toEqual(['gentle', 'firm', 'firm', 'firm', 'final']);
    [first] = sent.slice(-1);
    expect(first!.subject).toBe(`Dernier rappel avant recouvrement : facture ${inv.number} – ${org.org.name}`);
    // A business client: the L441-10 mention, the penalty rate as the invoice states it, and the €40 indemnity.
    expect(first!.text).toContain('L441-10');
    expect(first!.text).toContain('40');
    expect(first!.text).toContain('Banque centrale européenne');

    const rows = await reminderRows(org, inv.id);
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
    expect(rows.map((r) => r.email_id)).toEqual(sent.map((e) => e.id));
    expect(rows[4]!.sent_at).toEqual(at('2027-02-20'));
    expect(await ladderRow(org, inv.id)).toMatchObject({ open: true, sent_count: 5, pending_count: 0, exhausted: true, next_at: null });
    const tracking = await reminderTracking(org.db, org.org.id, at('2027-02-21'));
    expect(tracking.items.find((r) => r.document_id === inv.id)).toEqual({
      document_id: inv.id,
      number: inv.number,
      contact_name: 'Client SARL',
      due_date: '2027-01-21',
      days_overdue: 31,
      total_ttc_cents: 12000,
      balance_cents: 12000,
      sent_count: 5,
      pending_count: 0,
      next_at: null,
      exhausted: true,
    });
    expect(await dispatch(at('2027-06-01'))).toMatchObject({ sent: 0 });
  });

  it('a dispatcher that was stopped catches up with one e-mail: the latest step due, the older ones superseded', async () => {
    const inv = await sentInvoice();
    expect(await dispatch(at('2027-02-06'))).toEqual({ sent: 1, skipped: 3, cancelled: 0, failed: 0 });
    expect(await statuses(inv.id)).toEqual([
      ['skipped', 'superseded'],
      ['skipped', 'superseded'],
      ['skipped', 'superseded'],
      ['sent', null],
      ['pending', null],
    ]);
    expect((await reminderEmails(inv.id)).map((e) => (e.template_data as { tone: string }).tone)).toEqual(['firm']);
    expect((await ladderRow(org, inv.id))!.next_at).toEqual(at('2027-02-20', 9));
  });

  it('asks for what is still owed after a partial payment', async () => {
    const inv = await sentInvoice();
    await api.pay(inv.id, { amount: 5000 });
    await dispatch(at('2027-01-22'));
    const [reminder] = (await reminderEmails(inv.id)).slice(-1);
    expect(reminder!.template_data).toMatchObject({ amount_due_cents: 7000, tone: 'firm' });
  });

  it('paid mid-ladder: the pending steps are cancelled in the payment’s transaction, nothing more is sent', async () => {
    const inv = await sentInvoice();
    await dispatch(at('2027-01-18', 9));
    const payment = await api.pay(inv.id, { amount: 12000 });
    expect(payment.body.status).toBe('paid');
    expect(await statuses(inv.id)).toEqual([['sent', null], ...Array(4).fill(['cancelled', 'document_paid'])]);
    expect(await dispatch(at('2027-03-01'))).toMatchObject({ sent: 0 });
    expect(await reminderEmails(inv.id)).toHaveLength(1);
    expect((await ladderRow(org, inv.id))!.open).toBe(false);
    expect((await reminderTracking(org.db, org.org.id, at('2027-03-01'))).items.map((r) => r.document_id)).not.toContain(inv.id);

    // The payment was a mistake: owed again, back in tracking, its ladder over (the cancelled steps stay so).
    await api.unpay(inv.id, payment.body.payment.id);
    const row = (await reminderTracking(org.db, org.org.id, at('2027-03-01'))).items.find((r) => r.document_id === inv.id);
    expect(row).toMatchObject({ exhausted: true, sent_count: 1, pending_count: 0, balance_cents: 12000 });
  });

  it('cancelled mid-ladder: the pending steps are cancelled; the credit note issued is not chased', async () => {
    const inv = await sentInvoice();
    await dispatch(at('2027-01-22'));
    expect((await api.cancel(inv.id)).status).toBe(200);
    expect((await statuses(inv.id)).slice(2)).toEqual(Array(3).fill(['cancelled', 'document_cancelled']));
    expect(await dispatch(at('2027-03-01'))).toMatchObject({ sent: 0 });
    const [credit] = await org.db.select().from(documents).where(eq(documents.avoir_for_id, inv.id));
    expect(await reminderRows(org, credit!.id)).toEqual([]);
  });

  it('fully credited (the invoice keeps its status): the next step finds nothing due and cancels itself', async () => {
    const inv = await sentInvoice();
    const note = await api.creditNote(inv.id, { credit_reason_code: 'commercial_gesture' });
    await api.finalize(note.body.id);
    expect(await dispatch(at('2027-01-18', 9))).toEqual({ sent: 0, skipped: 0, cancelled: 1, failed: 0 });
    expect((await statuses(inv.id))[0]).toEqual(['cancelled', 'nothing_due']);
    expect((await reminderTracking(org.db, org.org.id, at('2027-01-18', 9))).items.map((r) => r.document_id)).not.toContain(inv.id);
  });

  it('never writes to a client who opted out of reminders; once opted back in, the next step goes', async () => {
    const shy = await api.contact({ company: 'Discret SAS', email: 'discret@client.example', reminder_opt_out: true });
    const inv = await sentInvoice(shy.id);
    // The document itself was sent (opting out concerns reminders only).
    expect((await documentEmails(org, inv.id)).map((e) => e.template)).toEqual(['document_sent']);
    expect(await dispatch(at('2027-01-18', 9))).toEqual({ sent: 0, skipped: 1, cancelled: 0, failed: 0 });
    expect((await statuses(inv.id))[0]).toEqual(['skipped', 'opted_out']);
    const patched = await call(contactRoutes.patch, 'PATCH', `/v1/contacts/${shy.id}`, {
      token: api.token,
      params: { id: shy.id },
      body: { reminder_opt_out: false },
    });
    expect(patched.status).toBe(200);
    expect((await dispatch(at('2027-01-22'))).sent).toBe(1);
    expect(await reminderEmails(inv.id)).toHaveLength(1);
  });

  it('skips a step when the contact no longer has an address (deleted)', async () => {
    const gone = await api.contact({ company: 'Partie SARL', email: 'partie@client.example' });
    const inv = await sentInvoice(gone.id);
    await call(contactRoutes.delete, 'DELETE', `/v1/contacts/${gone.id}`, { token: api.token, params: { id: gone.id } });
    expect(await dispatch(at('2027-01-18', 9))).toMatchObject({ skipped: 1, sent: 0 });
    expect((await statuses(inv.id))[0]).toEqual(['skipped', 'no_recipient']);
  });
});

describe('the quote-expiry ladder', () => {
  it('reminds before the validity date ends; an answer cancels the rest', async () => {
    const quote = await api.issuedAt(T0, client.id, { type: 'devis', dueInDays: 20 });
    expect((await sendDocument(org.db, org.org.id, quote.id, SendDocumentInput.parse({}), T0)).scheduled_reminders).toBe(2);
    // Seven days before 31 January is Sunday 24: the reminder goes on Monday 25.
    expect((await dispatch(at('2027-01-24'))).sent).toBe(0);
    expect((await dispatch(at('2027-01-25'))).sent).toBe(1);
    const [email] = await reminderEmails(quote.id);
    expect(email).toMatchObject({ template: 'quote_expiry_reminder', template_data: expect.objectContaining({ validity_date: '2027-01-31' }) });
    expect((await api.accept(quote.id)).status).toBe(200);
    expect(await statuses(quote.id)).toEqual([
      ['sent', null],
      ['cancelled', 'document_accepted'],
    ]);
  });

  it('a quote expired by the nightly job (a direct status update) has its pending steps cancelled too', async () => {
    const quote = await api.issuedAt(T0, client.id, { type: 'devis', dueInDays: 20 });
    await sendDocument(org.db, org.org.id, quote.id, SendDocumentInput.parse({}), T0);
    await org.db.update(documents).set({ status: 'expired' }).where(eq(documents.id, quote.id));
    expect(await statuses(quote.id)).toEqual(Array(2).fill(['cancelled', 'document_expired']));
  });
});

describe('manual reminders', () => {
  it('go out when scheduled, with the sender’s words and the tone asked for', async () => {
    const inv = await api.issuedAt(T0, client.id, { dueInDays: 10 });
    const res = await api.addReminder(inv.id, { scheduled_at: '2027-01-25T15:30:00+01:00', message: 'Un simple oubli ?', tone: 'final' });
    expect(res.status).toBe(201);
    const plain = await addManualReminder(org.db, org.org.id, inv.id, { message: null }, at('2027-01-26'));
    expect(await dispatch(at('2027-01-25', 15))).toMatchObject({ sent: 0 });
    expect(await dispatch(at('2027-01-26'))).toMatchObject({ sent: 2 });
    const sent = await reminderEmails(inv.id);
    expect(sent.map((e) => (e.template_data as { tone: string; message: string | null }).tone)).toEqual(['final', 'firm']);
    expect(sent[0]!.text).toContain('Un simple oubli ?');
    const rows = await reminderRows(org, inv.id);
    expect(rows.map((r) => [r.id, r.kind, r.status, r.tone])).toEqual([
      [res.body.id, 'manual', 'sent', 'final'],
      [plain.id, 'manual', 'sent', 'firm'],
    ]);
  });
});

describe('the dispatcher', () => {
  it('sends a step at most once with two dispatchers racing', async () => {
    const docs = [];
    for (let i = 0; i < 12; i++) docs.push(await api.issuedAt(T0, client.id, { dueInDays: 10, amount: 1000 + i }));
    for (const doc of docs) {
      for (const hour of [11, 12]) await addManualReminder(org.db, org.org.id, doc.id, { message: `#${hour}` }, parisInstant('2027-01-12', hour));
    }
    const now = at('2027-01-13');
    const [a, b] = await Promise.all([dispatch(now, 5), dispatch(now, 5)]);
    expect(a.sent + b.sent).toBe(24);
    expect(a.failed + b.failed + a.skipped + b.skipped).toBe(0);
    const rows = await org.db
      .select({ id: reminders.id, status: reminders.status, email_id: reminders.email_id })
      .from(reminders)
      .where(and(eq(reminders.org_id, org.org.id), eq(reminders.kind, 'manual'), sql`${reminders.document_id} in ${docs.map((d) => d.id)}`));
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.status === 'sent' && r.email_id)).toBe(true);
    const mails = await org.db
      .select({ id: emails.id, document_id: emails.document_id })
      .from(emails)
      .where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'payment_reminder'), sql`${emails.document_id} in ${docs.map((d) => d.id)}`));
    expect(mails).toHaveLength(24);
    expect(new Set(rows.map((r) => r.email_id)).size).toBe(24);
  });

  it('one reminder that cannot be queued does not take the batch down: retried with back-off, then skipped', async () => {
    const broken = await api.contact({ company: 'Adresse Cassée', email: 'casse@client.example' });
    const fine = await api.issuedAt(T0, client.id, { dueInDays: 10 });
    const bad = await api.issuedAt(T0, broken.id, { dueInDays: 10 });
    // An address the contacts module would never store (an old import): the e-mail layer refuses it.
    await org.db.update(contacts).set({ email: 'pas une adresse' }).where(eq(contacts.id, broken.id));
    await addManualReminder(org.db, org.org.id, fine.id, {}, T0);
    const failing = await addManualReminder(org.db, org.org.id, bad.id, {}, T0);

    expect(await dispatch(T0)).toEqual({ sent: 1, skipped: 0, cancelled: 0, failed: 1 });
    let [row] = await reminderRows(org, bad.id);
    expect(row).toMatchObject({ id: failing.id, status: 'pending', attempts: 1, last_error: expect.stringContaining('to.0') });
    expect(row!.scheduled_at).toEqual(new Date(T0.getTime() + DISPATCH_RETRY_MS));
    expect(await dispatch(T0)).toMatchObject({ failed: 0 });

    for (let attempt = 2; attempt <= MAX_DISPATCH_ATTEMPTS; attempt++) {
      // Tried again once its back-off has passed (5 min, then 10).
      expect(await dispatch(row!.scheduled_at)).toMatchObject({ failed: 1 });
      [row] = await reminderRows(org, bad.id);
    }
    expect(row).toMatchObject({ status: 'skipped', reason: 'failed', attempts: MAX_DISPATCH_ATTEMPTS });
    expect(await documentEmails(org, bad.id)).toEqual([]);
  });

  it('is the job the workers run every minute', () => {
    expect(jobDefinitions).toContain(dispatchRemindersJob);
    expect(dispatchRemindersJob).toMatchObject({ name: 'reminders.dispatch', cron: '* * * * *' });
  });
});

describe('both e-mail transports', () => {
  it('outbox: the reminder e-mail is recorded and the job marks it sent', async () => {
    const inv = await sentInvoice();
    await dispatch(at('2027-01-18', 9));
    const [email] = await reminderEmails(inv.id);
    expect(email).toMatchObject({ transport: 'outbox', status: 'queued' });
    // The PDF rendered when the invoice was sent travels with its reminders.
    expect(email!.attachments).toEqual([expect.objectContaining({ filename: `${inv.number}.pdf`, content_type: 'application/pdf' })]);
    await sendEmailJob.handle({ email_id: email!.id }, { db: org.db, jobId: 'test', attempt: 1 });
    expect(await emailRow(org.db, email!.id)).toMatchObject({ status: 'sent', attempts: 1, provider_id: null });
  });

  it('Resend: retried on failures, then failed after the bounded attempts; the reminder and the e-mail record stay', async () => {
    const restore = useResend(fake);
    try {
      const inv = await sentInvoice();
      const ok = await sentInvoice();
      await dispatch(at('2027-01-18', 9));
      const [email] = await reminderEmails(inv.id);
      const [good] = await reminderEmails(ok.id);
      expect([email!.transport, good!.transport]).toEqual(['resend', 'resend']);

      fake.reset();
      await sendEmailJob.handle({ email_id: good!.id }, { db: org.db, jobId: 'ok', attempt: 1 });
      expect(fake.requests[0]!.body).toMatchObject({ subject: good!.subject, attachments: [expect.objectContaining({ filename: `${ok.number}.pdf` })] });
      expect(await emailRow(org.db, good!.id)).toMatchObject({ status: 'sent', provider_id: fake.accepted[0] });

      fake.failNext(MAX_SEND_ATTEMPTS, 503, 'application_error', 'down for maintenance');
      for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
        await expect(sendEmailJob.handle({ email_id: email!.id }, { db: org.db, jobId: 'j', attempt })).rejects.toBeInstanceOf(EmailRetryError);
        expect(await emailRow(org.db, email!.id)).toMatchObject({ status: 'queued', attempts: attempt });
      }
      await sendEmailJob.handle({ email_id: email!.id }, { db: org.db, jobId: 'j', attempt: MAX_SEND_ATTEMPTS });
      expect(await emailRow(org.db, email!.id)).toMatchObject({
        status: 'failed',
        attempts: MAX_SEND_ATTEMPTS,
        last_error: 'Resend 503 application_error: down for maintenance',
        template: 'payment_reminder',
      });
      const [step] = await reminderRows(org, inv.id);
      expect(step).toMatchObject({ status: 'sent', email_id: email!.id });
    } finally {
      restore();
    }
  });
});

describe('ladderSteps', () => {
  it('puts each step at 9:00 in Paris, winter and summer alike, and flags the past ones', () => {
    const steps = ladderSteps([-3, 1, 30], '2027-03-26', parisInstant('2027-03-23', 10));
    expect(steps.map((s) => [s.offset_days, s.scheduled_at.toISOString(), s.past])).toEqual([
      [-3, '2027-03-23T08:00:00.000Z', true],
      [1, '2027-03-27T08:00:00.000Z', false],
      // After the change to summer time (28 March): 9:00 in Paris is 7:00 UTC. 25 April is a Sunday: Monday 26.
      [30, '2027-04-26T07:00:00.000Z', false],
    ]);
  });

  it('never sends on a Sunday or a French public holiday, and never two steps the same day', () => {
    const days = (offsets: number[], anchor: string) => ladderSteps(offsets, anchor, parisInstant('2026-01-01')).map((s) => s.scheduled_at.toISOString().slice(0, 10));
    // Due Tuesday 22 December 2026: +3 is Christmas (Friday) → Saturday 26; +5 is Sunday 27 → Monday 28.
    expect(days([3, 5], '2026-12-22')).toEqual(['2026-12-26', '2026-12-28']);
    // Due Saturday 31 October: +1 is Sunday 1 November (also All Saints') → Monday 2; +2 is Monday 2 too → Tuesday 3.
    expect(days([1, 2, 11], '2026-10-31')).toEqual(['2026-11-02', '2026-11-03', '2026-11-12']);
  });

  it('skips Good Friday and 26 December only for an org in Alsace-Moselle', () => {
    const days = (offsets: number[], anchor: string, alsaceMoselle: boolean) =>
      ladderSteps(offsets, anchor, parisInstant('2026-01-01'), { alsaceMoselle }).map((s) => s.scheduled_at.toISOString().slice(0, 10));
    // Good Friday 2027 is 26 March: elsewhere a working day; in Alsace-Moselle → Saturday 27.
    expect(days([1], '2027-03-25', false)).toEqual(['2027-03-26']);
    expect(days([1], '2027-03-25', true)).toEqual(['2027-03-27']);
    // Tuesday 26 December 2028 likewise → Wednesday 27.
    expect(days([1], '2028-12-25', false)).toEqual(['2028-12-26']);
    expect(days([1], '2028-12-25', true)).toEqual(['2028-12-27']);
    // Christmas 2026 (Friday) → Saturday 26, itself a holiday there → Monday 28; the next step then goes on Tuesday 29.
    expect(days([3, 5], '2026-12-22', true)).toEqual(['2026-12-28', '2026-12-29']);
  });

  it('is armed with the org’s setting: a step on Good Friday moves for an Alsace-Moselle org, not for another', async () => {
    // Due 24 February 2027: the +30 step falls on Friday 26 March, Good Friday.
    const fifthStep = async () => {
      const inv = await api.issuedAt(T0, client.id, { dueInDays: 44 });
      await sendDocument(org.db, org.org.id, inv.id, SendDocumentInput.parse({}), T0);
      return (await reminderRows(org, inv.id)).find((r) => r.step === 4)!.scheduled_at.toISOString();
    };
    expect(await fifthStep()).toBe(parisInstant('2027-03-26').toISOString());
    await org.db.update(orgs).set({ alsace_moselle: true }).where(eq(orgs.id, org.org.id));
    expect(await fifthStep()).toBe(parisInstant('2027-03-27').toISOString());
  });
});
