import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { getQueue, startWorkers, stopQueue } from '@/lib/platform/jobs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { MAX_SEND_ATTEMPTS } from './config';
import { SEND_EMAIL_JOB, sendEmailJob } from './jobs';
import { type QueuedEmail, queueEmail } from './queue-email';
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

const jobOf = async (email: Pick<QueuedEmail, 'job_id'>) => (await getQueue()).getJobById(SEND_EMAIL_JOB, email.job_id!);

describe('the send job', () => {
  it("is written with the e-mail, in its transaction, under the job id the e-mail keeps", async () => {
    const queued = await queue();
    const job = await jobOf(queued);
    expect(job).toMatchObject({ id: queued.job_id, name: SEND_EMAIL_JOB, data: { email_id: queued.id }, state: 'created', retryLimit: MAX_SEND_ATTEMPTS - 1 });
    const boss = await getQueue();
    expect(await boss.getQueueSize(SEND_EMAIL_JOB)).toBeGreaterThanOrEqual(1);
  });

  it('does not exist for an e-mail whose transaction rolled back', async () => {
    let jobId: string | null = null;
    await expect(
      db.transaction(async (tx) => {
        const queued = await queueEmail(tx, org.org.id, { to: ['client@example.fr'], template: 'document_sent', data: invoiceData(), language: 'fr' });
        jobId = queued.job_id;
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(jobId).toBeTruthy();
    expect(await (await getQueue()).getJobById(SEND_EMAIL_JOB, jobId!)).toBeNull();
  });
});

describe('through pg-boss', () => {
  it('sends a queued e-mail from the worker (outbox transport)', async () => {
    await startWorkers([sendEmailJob as never]);
    const queued = await queue();

    const deadline = Date.now() + 20_000;
    let row = await emailRow(db, queued.id);
    while (Date.now() < deadline && row.status !== 'sent') {
      await new Promise((r) => setTimeout(r, 200));
      row = await emailRow(db, queued.id);
    }
    expect([row.status, row.attempts, row.transport]).toEqual(['sent', 1, 'outbox']);
    // pg-boss marks the job completed after the handler returned, a moment after the row says sent.
    let job = await jobOf(queued);
    while (Date.now() < deadline && job?.state === 'active') {
      await new Promise((r) => setTimeout(r, 100));
      job = await jobOf(queued);
    }
    expect(job?.state).toBe('completed');
  });
});
