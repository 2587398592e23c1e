import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { recurringGenerations, recurringTemplates } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { recordEvent } from '@/lib/platform/events';
import { afterCursor, type Page, type PageQuery, toPage } from '@/lib/platform/http';
import type { RecurringGeneration } from './schemas';
import { loadTemplate } from './templates';

export type GenerationRow = typeof recurringGenerations.$inferSelect;

/** A failure as it is kept and shown: the API's code and message, or the error's name and message. */
export function reasonOf(err: unknown): string {
  const text = err instanceof ApiError ? `${err.code}: ${err.message}` : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 2000);
}

export function toPublicGeneration(row: GenerationRow): RecurringGeneration {
  return {
    id: row.id,
    template_id: row.template_id,
    period_start: row.period_start,
    document_id: row.document_id,
    status: row.status,
    stage: row.stage,
    error: row.error,
    source: row.source,
    collect_status: row.collect_status,
    collect_error: row.collect_error,
    online_payment_id: row.online_payment_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A template's generations, newest first (its history: the invoices it made and its failures). */
export async function listRecurringGenerations(db: Db, orgId: string, templateId: string, query: PageQuery): Promise<Page<RecurringGeneration>> {
  await loadTemplate(db, orgId, templateId);
  const rows = await db
    .select()
    .from(recurringGenerations)
    .where(and(eq(recurringGenerations.org_id, orgId), eq(recurringGenerations.template_id, templateId), afterCursor(recurringGenerations.id, query.cursor)))
    .orderBy(desc(recurringGenerations.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicGeneration);
}

export async function loadGeneration(db: Db, orgId: string, id: string): Promise<GenerationRow | null> {
  const [row] = await db
    .select()
    .from(recurringGenerations)
    .where(and(eq(recurringGenerations.org_id, orgId), eq(recurringGenerations.id, id)));
  return row ?? null;
}

/**
 * Records a failure after the draft exists (finalize, send, or the SEPA debit with `collect`): on the generation, on
 * the template (last_error), and as recurring_invoice.failed, in one transaction. The template stays active.
 */
export async function recordDeliveryFailure(
  db: Db,
  gen: GenerationRow,
  failure: { stage: 'finalize' | 'send'; reason: string } | { collect: string },
  now = new Date(),
): Promise<GenerationRow> {
  return db.transaction(async (tx) => {
    const changes =
      'collect' in failure
        ? { collect_status: 'failed' as const, collect_error: failure.collect }
        : { status: 'failed' as const, stage: failure.stage, error: failure.reason };
    const [row] = await tx
      .update(recurringGenerations)
      .set({ ...changes, updated_at: now })
      .where(eq(recurringGenerations.id, gen.id))
      .returning();
    await tx
      .update(recurringTemplates)
      .set({ last_error: 'collect' in failure ? failure.collect : failure.reason, last_error_at: now, updated_at: now })
      .where(eq(recurringTemplates.id, gen.template_id));
    await recordEvent(tx, gen.org_id, 'recurring_invoice.failed', toPublicGeneration(row!));
    return row!;
  });
}
