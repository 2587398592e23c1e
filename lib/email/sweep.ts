import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db } from '@/db/client';
import { emails } from '@/db/schema';
import { MAX_SEND_ATTEMPTS, SEND_RETRY_DELAY_SECONDS, SWEEP_GRACE_SECONDS } from './config';

const BATCH = 100;
/** pg-boss states of a job that will still run. */
const PENDING = new Set(['created', 'retry', 'active']);

export interface SweepResult {
  requeued: string[];
  failed: string[];
}

/**
 * The safety net of after-commit dispatch. A queued e-mail is overdue when it has waited a minute past the
 * latest moment its next attempt was due (right away for a new one; after an attempt, the longest back-off
 * pg-boss may choose). If its job no longer exists or will never run again (never sent because the process
 * died after the commit, or pg-boss gave up), it gets a new job; if every attempt is spent, it ends `failed`.
 * A job still waiting its turn (a busy queue) is left alone. At-least-once: the sender is idempotent.
 */
export async function sweepQueuedEmails(db: Db, boss: Pick<PgBoss, 'getJobById' | 'insert'>, jobName: string): Promise<SweepResult> {
  const overdue = await db
    .select({ id: emails.id, job_id: emails.job_id, attempts: emails.attempts })
    .from(emails)
    .where(
      and(
        eq(emails.status, 'queued'),
        sql`${emails.updated_at} < now() - make_interval(secs => ${SWEEP_GRACE_SECONDS} + CASE WHEN ${emails.attempts} = 0 THEN 0 ELSE ${SEND_RETRY_DELAY_SECONDS} * power(2, ${emails.attempts}) END)`,
      ),
    )
    .orderBy(asc(emails.updated_at))
    .limit(BATCH);

  const result: SweepResult = { requeued: [], failed: [] };
  for (const email of overdue) {
    if (email.attempts >= MAX_SEND_ATTEMPTS) {
      const [row] = await db
        .update(emails)
        .set({ status: 'failed', last_error: sql`coalesce(${emails.last_error}, ${`gave up after ${MAX_SEND_ATTEMPTS} attempts`})` })
        .where(and(eq(emails.id, email.id), eq(emails.status, 'queued')))
        .returning({ id: emails.id });
      if (row) result.failed.push(row.id);
      continue;
    }
    const job = email.job_id ? await boss.getJobById(jobName, email.job_id) : null;
    if (job && PENDING.has(job.state)) continue;
    const jobId = randomUUID();
    const [row] = await db
      .update(emails)
      .set({ job_id: jobId })
      .where(and(eq(emails.id, email.id), eq(emails.status, 'queued')))
      .returning({ id: emails.id });
    if (!row) continue;
    await boss.insert([{ id: jobId, name: jobName, data: { email_id: email.id } }]);
    result.requeued.push(email.id);
  }
  return result;
}
