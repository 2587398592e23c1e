import type { Db } from '@/db/client';
import { deliverGeneration } from './deliver';
import { dueTemplates, type Generated, generateDue } from './generate';
import { loadGeneration, reasonOf, recordDeliveryFailure } from './generations';
import { log } from '@/lib/platform/log';

/**
 * What the schedule's jobs do, run here and now (tests and the bench's checks): every due template generated, `lanes`
 * at a time, each failure kept to its template. Two of these at once on one database are two racing workers.
 */
export async function generateDueTemplates(db: Db, { now = new Date(), orgId, lanes = 2 }: { now?: Date; orgId?: string; lanes?: number } = {}): Promise<Generated[]> {
  const queue = await dueTemplates(db, now, orgId);
  const out: Generated[] = [];
  const lane = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      try {
        out.push(...(await generateDue(db, t.org_id, t.id, now)));
      } catch (err) {
        log.error({ module: 'recurring', template_id: t.id, err }, `template ${t.id} could not be generated`);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return out;
}

/** The delivery job: on its last attempt an unexpected error is recorded as the generation's failure, not lost. */
export async function deliverOrRecord(db: Db, orgId: string, generationId: string, lastAttempt: boolean) {
  try {
    await deliverGeneration(db, orgId, generationId);
  } catch (err) {
    const gen = lastAttempt ? await loadGeneration(db, orgId, generationId) : null;
    if (!gen) throw err;
    await recordDeliveryFailure(db, gen, { stage: 'send', reason: reasonOf(err) });
  }
}
