import type { Db } from '@/db/client';
import { subscribe } from '@/lib/platform/events';
import { defineJob, enqueueMany } from '@/lib/platform/jobs';

/* The handlers are loaded when a job runs, as the other modules' are. */

/** One template's periods that have come (catch-up included), in its own job: a failing template stops no other. */
export const generateRecurringJob = defineJob<{ org_id: string; template_id: string }>({
  name: 'recurring.generate',
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 300,
  workers: 2,
  // A monthly run queues one per template: fetched ten at a time (jobs/define.ts), still two at once per process.
  batchSize: 10,
  sequentialBatch: true,
  async handle(data, { db }) {
    const { generateDue } = await import('./generate');
    await generateDue(db, data.org_id, data.template_id);
  },
});

/** The last attempt of a delivery job (1 + retryLimit): an unexpected error is then recorded, not lost. */
const DELIVER_RETRIES = 3;

/** auto_send (and auto_collect_sepa) of one generated invoice; a refusal is recorded, an unexpected error retried. */
export const deliverRecurringJob = defineJob<{ org_id: string; generation_id: string }>({
  name: 'recurring.deliver',
  retryLimit: DELIVER_RETRIES,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 300,
  workers: 2,
  batchSize: 10,
  sequentialBatch: true,
  async handle(data, { db, attempt }) {
    const { deliverOrRecord } = await import('./schedule');
    await deliverOrRecord(db, data.org_id, data.generation_id, attempt > DELIVER_RETRIES);
  },
});

/**
 * A scheduled generation's event writes its delivery job in the generation's transaction (the job exists exactly when
 * the draft does); the job does nothing for a template without auto_send. A run (POST …/run) delivers in its request.
 */
export const deliverOnGenerated = subscribe({
  events: ['recurring_invoice.generated'],
  job: deliverRecurringJob,
  when: (event) => (event.object as { source: string }).source === 'schedule',
  data: (event) => ({ org_id: event.org_id, generation_id: (event.object as { id: string }).id }),
});

/** Jobs written per statement when the schedule fans out. */
const FAN_OUT_BATCH = 1000;

/**
 * The hourly schedule: one `recurring.generate` job per due template (10,000 templates spread over the workers), named
 * `<template>:<date>` by its singleton key for the queue's inspection. A second job for a template (the next hour's run
 * before this one ran) is harmless: exactly-once rests on the template's row lock and the generation's unique
 * (template, period), and a job finding nothing due does nothing. Returns how many templates were due.
 */
export async function enqueueDueTemplates(db: Db, { now = new Date(), orgId }: { now?: Date; orgId?: string } = {}): Promise<number> {
  const { dueTemplates } = await import('./generate');
  const due = await dueTemplates(db, now, orgId);
  for (let i = 0; i < due.length; i += FAN_OUT_BATCH) {
    const jobs = due.slice(i, i + FAN_OUT_BATCH).map((t) => ({
      def: generateRecurringJob,
      data: { org_id: t.org_id, template_id: t.id },
      singletonKey: `${t.id}:${t.next_generation_date}`,
    }));
    await db.transaction((tx) => enqueueMany(tx, jobs as never));
  }
  return due.length;
}

/** Every hour (Europe/Paris): a generate job per active template whose date has come. */
export const recurringScheduleJob = defineJob<Record<string, never>>({
  name: 'recurring.schedule',
  retryLimit: 1,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 900,
  cron: '0 * * * *',
  async handle(_data, { db }) {
    await enqueueDueTemplates(db);
  },
});

export const recurringJobs = [recurringScheduleJob, generateRecurringJob, deliverRecurringJob];
