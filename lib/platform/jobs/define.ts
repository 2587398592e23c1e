import type { Db } from '@/db/client';

/** A job kind: its queue policy (bounded retries with back-off) and its handler. */
export interface JobDefinition<T = unknown> {
  name: string;
  /** Retries after the first failure; every queue has an end. */
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds?: number;
  /** Jobs of this kind run at once per process (default 1): for handlers that wait on a slow peer (webhooks). */
  workers?: number;
  /**
   * Jobs each worker fetches in one round trip (pg-boss `batchSize`, default 1). Above 1 the batch runs concurrently
   * and each job completes or fails (then is retried per the policy) on its own.
   */
  batchSize?: number;
  /**
   * With batchSize: run the batch's jobs one after another instead of at once. For a kind that queues by the thousand
   * (a monthly run): pg-boss's fetch sorts every waiting job of the queue, so fetching ten at a time costs PostgreSQL a
   * tenth, while the process runs no more of them at once than `workers` says. A job's expiry (`expireInSeconds`)
   * counts from the fetch: it must cover the batch's jobs before it.
   */
  sequentialBatch?: boolean;
  /** With batchSize: the whole batch in one call (fewer statements); resolves with each job's error, null when it went well. */
  handleBatch?(jobs: readonly BatchJob<T>[], ctx: { db: Db }): Promise<readonly unknown[]>;
  /** Cron (Europe/Paris) for periodic jobs. */
  cron?: string;
  handle(data: T, ctx: { db: Db; jobId: string; attempt: number }): Promise<void>;
}

export interface BatchJob<T> {
  data: T;
  jobId: string;
  attempt: number;
}

export function defineJob<T>(def: JobDefinition<T>): JobDefinition<T> {
  return def;
}
