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
  /** Cron (Europe/Paris) for periodic jobs. */
  cron?: string;
  handle(data: T, ctx: { db: Db; jobId: string; attempt: number }): Promise<void>;
}

export function defineJob<T>(def: JobDefinition<T>): JobDefinition<T> {
  return def;
}
