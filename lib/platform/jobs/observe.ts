import { withLogContext } from '@/lib/platform/log';
import { inSpan, jobMetrics } from '@/lib/platform/telemetry';

/**
 * What every job run goes through (queue.ts): its lines carry `job_id`, `job_kind` and `attempt` (lib/platform/log),
 * it is a span named after its kind (lib/platform/telemetry), and its outcome and duration are counted.
 */
export function observeJob<T>(kind: string, jobId: string, attempt: number, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  return withLogContext({ job_id: jobId, job_kind: kind, attempt }, () =>
    inSpan(`job ${kind}`, { kind: 'consumer', attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': kind, 'messaging.message.id': jobId, 'paraphe.job.attempt': attempt } }, async () => {
      try {
        const result = await run();
        jobMetrics().record(kind, 'completed', performance.now() - started);
        return result;
      } catch (error) {
        jobMetrics().record(kind, 'failed', performance.now() - started);
        throw error;
      }
    }),
  );
}

/** A batch (several jobs in one handler call): one span, every job id on it. */
export function observeBatch<T>(kind: string, jobIds: readonly string[], run: () => Promise<T>): Promise<T> {
  return withLogContext({ job_kind: kind }, () =>
    inSpan(`job ${kind}`, { kind: 'consumer', attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': kind, 'messaging.batch.message_count': jobIds.length } }, run),
  );
}
