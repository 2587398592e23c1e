import type { Db } from '@/db/client';
import { getQueue } from '@/lib/jobs/queue';
import { SEND_EMAIL_JOB } from './jobs';
import { type QueuedEmail, type QueueEmailInput, queueEmail } from './queue-email';

/**
 * Hands e-mails recorded by `queueEmail` to the `email.send` job; call it right after the transaction that
 * queued them has committed (a job sent earlier could run before the row exists, or for a rolled-back one).
 * Each e-mail's job id was fixed when it was queued, so dispatching twice creates one job. Never throws: the
 * e-mails are safely recorded and, should the queue be unreachable now, the sweeper sends them later.
 */
export async function dispatchEmails(queued: Array<Pick<QueuedEmail, 'id' | 'job_id'>>): Promise<void> {
  if (queued.length === 0) return;
  try {
    const boss = await getQueue();
    await boss.insert(queued.map((e) => ({ id: e.job_id ?? undefined, name: SEND_EMAIL_JOB, data: { email_id: e.id } })));
  } catch (err) {
    console.error(`[email] could not queue the sending of ${queued.map((e) => e.id).join(', ')}; the sweeper will`, err);
  }
}

/** For callers with no transaction of their own: records the e-mail, commits, then dispatches it. */
export async function queueAndDispatchEmail(db: Db, orgId: string, input: QueueEmailInput): Promise<QueuedEmail> {
  const queued = await db.transaction((tx) => queueEmail(tx, orgId, input));
  await dispatchEmails([queued]);
  return queued;
}
