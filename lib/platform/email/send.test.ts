import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { MAX_SEND_ATTEMPTS } from './config';
import { sendEmailJob } from './jobs';
import { getEmail, listDocumentEmails, listOutboxEmails } from './mailbox';
import { type QueueEmailInput, queueEmail } from './queue-email';
import { EmailRetryError, sendQueuedEmail } from './send';
import { attachmentRows, emailRow, type FakeResend, invoiceData, startFakeResend, useResend } from './testing';

let org: TestOrg;
let db: Db;
let fake: FakeResend;
beforeAll(async () => {
  org = await createTestOrg();
  db = org.db;
  fake = await startFakeResend();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const pdf = Buffer.from('%PDF-1.7 fake invoice bytes');
const input = (overrides: Partial<QueueEmailInput> = {}): QueueEmailInput =>
  ({
    to: ['jeanne@example.fr'],
    cc: ['compta@example.fr'],
    replyTo: 'contact@atelier.example',
    template: 'document_sent',
    data: invoiceData(),
    language: 'fr',
    documentId: '0190f3a0-0000-7000-8000-000000000001',
    attachments: [{ filename: 'F-2026-00012.pdf', contentType: 'application/pdf', content: pdf }],
    ...overrides,
  }) as QueueEmailInput;

const queue = (overrides: Partial<QueueEmailInput> = {}, orgId = org.org.id) => db.transaction((tx) => queueEmail(tx, orgId, input(overrides)));

/** Runs the job's handler the way a worker does, returning the error it threw (a retry) if any. */
const runJob = (emailId: string, attempt = 1) =>
  sendEmailJob.handle({ email_id: emailId }, { db, jobId: 'test', attempt }).then(
    () => null,
    (err: unknown) => err,
  );

describe('through Resend (the real SDK against a local fake)', () => {
  let restore: () => void;
  beforeAll(() => {
    restore = useResend(fake);
  });
  afterAll(() => restore());

  it('records the e-mail queued in the transaction, sends it from the job, and stores the provider id', async () => {
    const queued = await queue();
    expect(queued).toMatchObject({ status: 'queued', transport: 'resend', subject: 'Facture F-2026-00012 – Atelier Lumière', to: ['jeanne@example.fr'] });
    expect(fake.requests).toHaveLength(0);
    expect(await attachmentRows(db, queued.id)).toHaveLength(1);

    expect(await runJob(queued.id)).toBeNull();
    const row = await emailRow(db, queued.id);
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, provider_id: fake.accepted[0] });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(req!.headers['idempotency-key']).toBe(queued.id);
    expect(req!.body).toMatchObject({
      from: 'Paraphe <factures@paraphe.test>',
      to: ['jeanne@example.fr'],
      cc: ['compta@example.fr'],
      reply_to: 'contact@atelier.example',
      subject: 'Facture F-2026-00012 – Atelier Lumière',
      html: row.html,
      text: row.text,
      attachments: [{ filename: 'F-2026-00012.pdf', content_type: 'application/pdf', content: pdf.toString('base64') }],
      tags: [
        { name: 'paraphe_email_id', value: queued.id },
        { name: 'paraphe_org_id', value: org.org.id },
      ],
    });
    expect(row.attachments).toEqual([{ filename: 'F-2026-00012.pdf', content_type: 'application/pdf', size: pdf.length, storage_key: null }]);
    // Accepted by the provider: the bytes are not kept twice.
    expect(await attachmentRows(db, queued.id)).toHaveLength(0);
  });

  it('retries a server error: the first attempt fails and is recorded, the second sends', async () => {
    const queued = await queue();
    fake.failNext(1, 500);
    const err = await runJob(queued.id, 1);
    expect(err).toBeInstanceOf(EmailRetryError);
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Resend 500 internal_server_error: fake 500' });
    expect(await attachmentRows(db, queued.id)).toHaveLength(1);

    expect(await runJob(queued.id, 2)).toBeNull();
    const row = await emailRow(db, queued.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(fake.requests.map((r) => r.headers['idempotency-key'])).toEqual([queued.id, queued.id]);
  });

  it('retries a rate limit and an unreachable server', async () => {
    const queued = await queue({ attachments: [] });
    fake.failNext(1, 429, 'rate_limit_exceeded');
    expect(await runJob(queued.id)).toBeInstanceOf(EmailRetryError);
    process.env.RESEND_BASE_URL = 'http://127.0.0.1:9';
    try {
      expect(await runJob(queued.id, 2)).toBeInstanceOf(EmailRetryError);
    } finally {
      process.env.RESEND_BASE_URL = fake.url;
    }
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'queued', attempts: 2, last_error: expect.stringMatching(/^Resend network error/) });
    expect(await runJob(queued.id, 3)).toBeNull();
    expect((await emailRow(db, queued.id)).status).toBe('sent');
  });

  it('ends failed after the bounded attempts when the provider keeps failing, and keeps the record', async () => {
    const queued = await queue();
    fake.failNext(MAX_SEND_ATTEMPTS + 2, 503, 'application_error', 'down for maintenance');
    for (let attempt = 1; attempt < MAX_SEND_ATTEMPTS; attempt++) {
      expect(await runJob(queued.id, attempt)).toBeInstanceOf(EmailRetryError);
      expect(await emailRow(db, queued.id)).toMatchObject({ status: 'queued', attempts: attempt });
    }
    // The last attempt records the failure instead of asking for another retry.
    expect(await runJob(queued.id, MAX_SEND_ATTEMPTS)).toBeNull();
    const row = await emailRow(db, queued.id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_SEND_ATTEMPTS, last_error: 'Resend 503 application_error: down for maintenance', provider_id: null });
    expect(row.html).toContain('F-2026-00012');
    expect(await attachmentRows(db, queued.id)).toHaveLength(1);
    expect(fake.requests).toHaveLength(MAX_SEND_ATTEMPTS);

    // A duplicate job arriving later sends nothing.
    expect(await runJob(queued.id, 1)).toBeNull();
    expect(fake.requests).toHaveLength(MAX_SEND_ATTEMPTS);
  });

  it('retries an ambiguous failure with the same idempotency key: the provider sent it once', async () => {
    const queued = await queue({ attachments: [] });
    fake.loseNextAnswer();
    expect(await runJob(queued.id, 1)).toBeInstanceOf(EmailRetryError);
    expect(await runJob(queued.id, 2)).toBeNull();
    expect(fake.accepted).toHaveLength(2);
    expect(fake.accepted[1]).toBe(fake.accepted[0]);
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'sent', provider_id: fake.accepted[0], attempts: 2 });
  });

  it('fails at once when the provider refuses the e-mail for good', async () => {
    const queued = await queue();
    fake.failNext(1, 422, 'invalid_from_address', 'Invalid `from` field.');
    expect(await runJob(queued.id)).toBeNull();
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Resend 422 invalid_from_address: Invalid `from` field.' });
    expect(fake.requests).toHaveLength(1);
  });

  it('never sends an e-mail twice: a duplicate job finds it sent', async () => {
    const queued = await queue();
    await runJob(queued.id);
    await runJob(queued.id);
    expect(fake.requests).toHaveLength(1);
    expect(await sendQueuedEmail(db, queued.id)).toBe('skipped');
  });

  it('keeps the Resend transport it was queued with, even if the sending process lacks the key (retried, then failed)', async () => {
    const queued = await queue({ attachments: [] });
    delete process.env.RESEND_API_KEY;
    try {
      expect(await runJob(queued.id)).toBeInstanceOf(EmailRetryError);
    } finally {
      process.env.RESEND_API_KEY = 're_test_key';
    }
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'queued', transport: 'resend', last_error: 'RESEND_API_KEY is not set in the process that sends e-mails' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('through the outbox (no RESEND_API_KEY)', () => {
  it('marks the e-mail sent without any request, keeping the attachment metadata but not the bytes', async () => {
    expect(process.env.RESEND_API_KEY).toBeUndefined();
    const queued = await queue({ language: 'en', template: 'quote_expiry_reminder', data: { seller_name: 'Atelier Lumière', document_number: 'D-2026-00004', amount_cents: 98000, validity_date: '2026-04-30' } });
    expect(queued).toMatchObject({ transport: 'outbox', status: 'queued', subject: 'Your quote D-2026-00004 expires on 30 April 2026 – Atelier Lumière' });
    expect(await attachmentRows(db, queued.id)).toHaveLength(0);
    expect(await runJob(queued.id)).toBeNull();
    const row = await emailRow(db, queued.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, provider_id: null, language: 'en', template: 'quote_expiry_reminder' });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(row.attachments).toEqual([{ filename: 'F-2026-00012.pdf', content_type: 'application/pdf', size: pdf.length, storage_key: null }]);
    expect(fake.requests).toHaveLength(0);
  });

  it('uses the subject override and EMAIL_FROM', async () => {
    process.env.EMAIL_FROM = 'Atelier <bonjour@atelier.example>';
    try {
      const queued = await queue({ subject: '  Votre facture de mars  ' });
      expect(await emailRow(db, queued.id)).toMatchObject({ subject: 'Votre facture de mars', from: 'Atelier <bonjour@atelier.example>' });
    } finally {
      delete process.env.EMAIL_FROM;
    }
  });

  it('validates the envelope and the template data, naming the field', async () => {
    await expect(queue({ to: [] })).rejects.toMatchObject({ status: 422, field: 'to' });
    await expect(queue({ to: ['not-an-address'] })).rejects.toMatchObject({ status: 422, field: 'to.0' });
    await expect(queue({ cc: ['ok@example.fr', 'nope'] })).rejects.toMatchObject({ status: 422, field: 'cc.1' });
    await expect(queue({ data: invoiceData({ amount_cents: -1 }) } as never)).rejects.toMatchObject({ status: 422, field: 'data.amount_cents' });
    await expect(queue({ attachments: [{ filename: 'big.bin', contentType: 'application/octet-stream', content: Buffer.alloc(31 * 1024 * 1024) }] })).rejects.toMatchObject({
      status: 422,
      field: 'attachments',
    });
  });

  it('disappears with a rolled-back transaction', async () => {
    let id = '';
    await db
      .transaction(async (tx) => {
        id = (await queueEmail(tx, org.org.id, input())).id;
        throw new Error('rollback');
      })
      .catch(() => {});
    await expect(getEmail(db, org.org.id, id)).rejects.toMatchObject({ status: 404 });
  });

  it('lists the org’s outbox newest first, page by page, and a document’s mail log; never another org’s', async () => {
    const mine = await createTestOrg();
    const other = await createTestOrg();
    const documentId = '0190f3a0-0000-7000-8000-0000000000aa';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await queue({ documentId, subject: `n°${i}` }, mine.org.id)).id);
    const foreign = await queue({ documentId }, other.org.id);

    const first = await listOutboxEmails(db, mine.org.id, { limit: 2 });
    expect(first.items.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.items[0]).not.toHaveProperty('html');
    const second = await listOutboxEmails(db, mine.org.id, { limit: 2, before: first.nextBefore });
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextBefore: null });

    expect((await listDocumentEmails(db, mine.org.id, documentId)).map((e) => e.id)).toEqual([...ids].reverse());
    expect((await listDocumentEmails(db, other.org.id, documentId)).map((e) => e.id)).toEqual([foreign.id]);
    expect((await getEmail(db, mine.org.id, ids[0]!)).html).toContain('<!DOCTYPE html');
    await expect(getEmail(db, mine.org.id, foreign.id)).rejects.toMatchObject({ status: 404 });
  });
});
