import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { emails } from '@/db/schema';
import { getQueue, startWorkers, stopQueue } from '@/lib/jobs/queue';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { MAX_SEND_ATTEMPTS } from './config';
import { dispatchEmails, queueAndDispatchEmail } from './dispatch';
import { SEND_EMAIL_JOB, sendEmailJob, sweepEmailsJob } from './jobs';
import { type QueuedEmail, queueEmail } from './queue-email';
import { sweepQueuedEmails } from './sweep';
import { emailRow, invoiceData } from './testing';

let org: TestOrg;
let db: Db;
beforeAll(async () => {
  org = await createTestOrg();
  db = org.db;
});
afterAll(() => stopQueue());

const queue = () =>
  db.transaction((tx) => queueEmail(tx, org.org.id, { to: ['client@example.fr'], template: 'document_sent', data: invoiceData(), language: 'fr' }));

/** Makes an e-mail look as if it had waited `seconds` since its last change. */
const age = (id: string, seconds: number, set: Partial<typeof emails.$inferInsert> = {}) =>
  db
    .update(emails)
    .set({ ...set, updated_at: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(emails.id, id));

const jobOf = async (email: Pick<QueuedEmail, 'job_id'>) => (await getQueue()).getJobById(SEND_EMAIL_JOB, email.job_id!);

describe('dispatch', () => {
  it('queues one job per e-mail under the job id fixed at queue time, once however often it is dispatched', async () => {
    const queued = await queue();
    expect(await jobOf(queued)).toBeNull();
    await dispatchEmails([queued]);
    await dispatchEmails([queued]);
    const job = await jobOf(queued);
    expect(job).toMatchObject({ id: queued.job_id, name: SEND_EMAIL_JOB, data: { email_id: queued.id }, state: 'created', retryLimit: MAX_SEND_ATTEMPTS - 1 });
    const boss = await getQueue();
    expect(await boss.getQueueSize(SEND_EMAIL_JOB)).toBeGreaterThanOrEqual(1);
  });
});

describe('sweeper', () => {
  it('leaves a fresh e-mail and one whose job is still waiting alone', async () => {
    const fresh = await queue();
    const waiting = await queue();
    await dispatchEmails([waiting]);
    await age(waiting.id, 120);
    const result = await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB);
    expect(result.requeued).not.toContain(fresh.id);
    expect(result.requeued).not.toContain(waiting.id);
    expect((await emailRow(db, waiting.id)).job_id).toBe(waiting.job_id);
  });

  it('re-queues an e-mail whose job was never sent (lost after the commit) under a new job id', async () => {
    const lost = await queue();
    await age(lost.id, 61);
    const result = await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB);
    expect(result.requeued).toContain(lost.id);
    const row = await emailRow(db, lost.id);
    expect(row.status).toBe('queued');
    expect(row.job_id).not.toBe(lost.job_id);
    expect(await jobOf(row)).toMatchObject({ state: 'created', data: { email_id: lost.id } });
    // Swept once: the new job is pending, so the next sweep leaves it alone.
    await age(lost.id, 61);
    expect((await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB)).requeued).not.toContain(lost.id);
  });

  it('waits out the back-off of an e-mail between attempts before deeming its job lost', async () => {
    const retrying = await queue();
    // After 3 attempts pg-boss may wait up to 30 s × 2³ = 240 s: not lost at 200 s, lost at 320 s.
    await age(retrying.id, 200, { attempts: 3, job_id: null });
    expect((await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB)).requeued).not.toContain(retrying.id);
    await age(retrying.id, 320, { attempts: 3, job_id: null });
    expect((await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB)).requeued).toContain(retrying.id);
  });

  it('fails an e-mail whose attempts are spent instead of re-queueing it, keeping its last error', async () => {
    const spent = await queue();
    await age(spent.id, 3600, { attempts: MAX_SEND_ATTEMPTS, last_error: 'Resend 500 internal_server_error: boom' });
    const result = await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB);
    expect(result.failed).toContain(spent.id);
    expect(await emailRow(db, spent.id)).toMatchObject({ status: 'failed', last_error: 'Resend 500 internal_server_error: boom' });
  });

  it('runs as a periodic job', async () => {
    expect(sweepEmailsJob.cron).toBe('* * * * *');
    const lost = await queue();
    await age(lost.id, 90);
    await sweepEmailsJob.handle({}, { db, jobId: 'test', attempt: 1 });
    expect((await emailRow(db, lost.id)).job_id).not.toBe(lost.job_id);
  });
});

describe('through pg-boss', () => {
  it('sends a dispatched e-mail from the worker (outbox transport), and a swept one too', async () => {
    const lost = await queue();
    await age(lost.id, 61);
    await startWorkers([sendEmailJob as never]);
    const dispatched = await queueAndDispatchEmail(db, org.org.id, { to: ['client@example.fr'], template: 'document_sent', data: invoiceData(), language: 'en' });
    await sweepQueuedEmails(db, await getQueue(), SEND_EMAIL_JOB);

    const deadline = Date.now() + 20_000;
    let rows = await Promise.all([emailRow(db, dispatched.id), emailRow(db, lost.id)]);
    while (Date.now() < deadline && rows.some((r) => r.status !== 'sent')) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await Promise.all([emailRow(db, dispatched.id), emailRow(db, lost.id)]);
    }
    expect(rows.map((r) => [r.status, r.attempts, r.transport])).toEqual([
      ['sent', 1, 'outbox'],
      ['sent', 1, 'outbox'],
    ]);
    expect((await jobOf(dispatched))?.state).toBe('completed');
  });
});
