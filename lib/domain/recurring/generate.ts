import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { recurringGenerations, recurringTemplates } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { type BillingDocument, createDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import { recordEvent } from '@/lib/platform/events';
import { type GenerationRow, reasonOf, toPublicGeneration } from './generations';
import { nextGenerationDate } from './schedule-dates';
import { loadTemplate, type TemplateRow, toItemInputs } from './templates';

export type GenerationSource = 'run' | 'schedule';

export interface Generated {
  generation: GenerationRow;
  /** The draft (null when generating failed: the reason is on the generation and the template). */
  document: BillingDocument | null;
  /** Why the draft was refused, when it was. */
  refusal: ApiError | null;
  /** The template's date once this generation advanced it (unchanged after a refusal). */
  next_generation_date: string;
}

/** The period to generate: the template's date, past any period already generated (a date set back by a PATCH). */
async function freePeriod(tx: Tx, row: TemplateRow): Promise<string> {
  const done = new Set(
    (
      await tx
        .select({ period: recurringGenerations.period_start })
        .from(recurringGenerations)
        .where(eq(recurringGenerations.template_id, row.id))
    ).map((g) => g.period),
  );
  let period = row.next_generation_date;
  while (done.has(period)) period = nextGenerationDate(period, row.frequency, row.anchor_day);
  return period;
}

/**
 * Generates one period of a template in one transaction: the template row locked (a racing worker waits, then finds
 * the date advanced), the draft facture made through lib/domain/documents' createDocument (the path of POST /v1/invoices, in a
 * savepoint), its generation row under the unique (template, period) key, the date advanced keeping the anchor day,
 * recurring_invoice.generated written (a scheduled one's event writes the auto_send delivery job, lib/domain/recurring/jobs.ts). A draft refused
 * (contact erased, lines no longer valid) is recorded as a failed generation, the template paused with the reason,
 * and recurring_invoice.failed: its date does not move, nothing else stops. `dueOnly`: only an active template whose
 * date has come (the schedule); null when there is nothing to do.
 */
export async function generatePeriod(
  db: Db,
  orgId: string,
  templateId: string,
  { now = new Date(), source, dueOnly }: { now?: Date; source: GenerationSource; dueOnly: boolean },
): Promise<Generated | null> {
  const today = todayParis(now);
  return db.transaction(async (tx) => {
    const row = await loadTemplate(tx, orgId, templateId, true);
    if (dueOnly && (row.paused_at || row.next_generation_date > today)) return null;
    const period = await freePeriod(tx, row);
    if (dueOnly && period > today) {
      await advance(tx, row, period, now);
      return null;
    }
    let document: BillingDocument | null = null;
    let refusal: ApiError | null = null;
    try {
      document = await createDocument(tx, orgId, {
        type: 'facture',
        contact_id: row.contact_id,
        // An early run is issued today; a period that has come is dated by it (finalizing later moves it to that day).
        issue_date: [period, today].sort()[0]!,
        title: row.title,
        notes: row.notes,
        operation_nature: row.operation_nature,
        items: toItemInputs(row.items),
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      refusal = err;
    }
    const failure = refusal ? reasonOf(refusal) : null;
    const [generation] = await tx
      .insert(recurringGenerations)
      .values({
        org_id: orgId,
        template_id: row.id,
        period_start: period,
        document_id: document?.id ?? null,
        status: document ? 'generated' : 'failed',
        stage: document ? null : 'generate',
        error: failure,
        source,
      })
      .returning();
    if (!document) {
      await tx
        .update(recurringTemplates)
        .set({ paused_at: row.paused_at ?? now, last_error: failure, last_error_at: now, updated_at: now })
        .where(eq(recurringTemplates.id, row.id));
      await recordEvent(tx, orgId, 'recurring_invoice.failed', toPublicGeneration(generation!));
      return { generation: generation!, document: null, refusal, next_generation_date: row.next_generation_date };
    }
    const next = nextGenerationDate(period, row.frequency, row.anchor_day);
    await advance(tx, row, next, now, true);
    await recordEvent(tx, orgId, 'recurring_invoice.generated', toPublicGeneration(generation!));
    return { generation: generation!, document, refusal: null, next_generation_date: next };
  });
}

async function advance(tx: Tx, row: TemplateRow, next: string, now: Date, succeeded = false) {
  await tx
    .update(recurringTemplates)
    .set({ next_generation_date: next, updated_at: now, ...(succeeded ? { last_error: null, last_error_at: null } : {}) })
    .where(eq(recurringTemplates.id, row.id));
}

/**
 * Every period of one template that has come, oldest first, each once and in its own transaction (catch-up after
 * downtime). Stops at a failure (the template is then paused). Returns what was generated.
 */
export async function generateDue(db: Db, orgId: string, templateId: string, now = new Date()): Promise<Generated[]> {
  const out: Generated[] = [];
  const today = todayParis(now);
  for (;;) {
    const made = await generatePeriod(db, orgId, templateId, { now, source: 'schedule', dueOnly: true });
    if (!made) return out;
    out.push(made);
    // Not another transaction to find that the next period has not come (the usual case: one period due).
    if (!made.document || made.next_generation_date > today) return out;
  }
}

/** The active templates whose date has come (Europe/Paris), across orgs unless `orgId` narrows it. */
export async function dueTemplates(db: Db, now = new Date(), orgId?: string) {
  return db
    .select({ id: recurringTemplates.id, org_id: recurringTemplates.org_id, next_generation_date: recurringTemplates.next_generation_date })
    .from(recurringTemplates)
    .where(
      and(
        isNull(recurringTemplates.paused_at),
        lte(recurringTemplates.next_generation_date, todayParis(now)),
        orgId ? eq(recurringTemplates.org_id, orgId) : undefined,
      ),
    )
    .orderBy(asc(recurringTemplates.next_generation_date), asc(recurringTemplates.id));
}
