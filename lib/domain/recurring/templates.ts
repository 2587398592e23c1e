import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { type RecurringLine, recurringTemplates } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { type Conn, ItemInput, loadContactRow, prepareItems } from '@/lib/domain/documents';
import { notFound, validationError } from '@/lib/platform/errors';
import { afterCursor, type Page, toPage } from '@/lib/platform/http';
import { computeTotals, type VatCategory } from '@/lib/platform/money';
import { anchorDayOf, firstDateOnOrAfter } from './schedule-dates';
import type { RecurringListQuery, RecurringTemplate, RecurringTemplateCreate, RecurringTemplatePatch, TemplateLine } from './schemas';

export type TemplateRow = typeof recurringTemplates.$inferSelect;

/** Template lines back to document line inputs (a generated draft's items). */
export const toItemInputs = (lines: readonly RecurringLine[]): ItemInput[] =>
  lines.map((l) => ({ ...l, quantity: l.kind === 'discount' ? undefined : l.quantity }) as ItemInput);

/**
 * The lines checked exactly as a draft's (lib/domain/documents prepareItems: quantity > 0, VAT rate and category, a discount
 * within the subtotal of its rate), stored with what they were read as, and the totals of each generated invoice.
 */
async function prepareLines(conn: Conn, orgId: string, lines: readonly TemplateLine[]) {
  const prepared = await prepareItems(conn, orgId, lines.map((l) => ItemInput.parse({ ...l })));
  const items: RecurringLine[] = prepared.items.map((i) => ({
    kind: i.kind,
    description: i.description,
    details: i.details,
    position: i.position,
    quantity: i.quantity,
    unit: i.unit,
    unit_price: i.unit_price,
    vat_rate: i.vat_rate,
    vat_category: i.vat_category,
    vat_exemption_reason: i.vat_exemption_reason,
  }));
  return { items, totals: prepared.totals };
}

/** The contact must be one of the org's live contacts (422 on contact_id otherwise, as a draft's). */
async function checkContact(conn: Conn, orgId: string, contactId: string) {
  const c = await loadContactRow(conn, orgId, contactId);
  if (!c) throw validationError('contact_id', 'contact_id: no such contact');
  if (c.erased_at) throw validationError('contact_id', 'contact_id: this contact was erased');
  if (c.merged_into_id) throw validationError('contact_id', `contact_id: this contact was merged into ${c.merged_into_id}`);
  if (c.deleted_at) throw validationError('contact_id', 'contact_id: this contact is deleted; restore it first');
}

/** Each generated invoice's totals (EN 16931, per VAT group: lib/platform/money). */
function totalsOf(items: readonly RecurringLine[]) {
  const totals = computeTotals(items.map((l) => ({ ...l, vat_category: l.vat_category as VatCategory })));
  return { total_ht: totals.total_ht, total_ttc: totals.total_ttc };
}

export function toPublicTemplate(row: TemplateRow): RecurringTemplate {
  return {
    id: row.id,
    contact_id: row.contact_id,
    frequency: row.frequency,
    items: row.items,
    next_generation_date: row.next_generation_date,
    title: row.title,
    notes: row.notes,
    operation_nature: row.operation_nature,
    auto_send: row.auto_send,
    auto_collect_sepa: row.auto_collect_sepa,
    paused_at: row.paused_at?.toISOString() ?? null,
    status: row.paused_at ? 'paused' : 'active',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    anchor_day: row.anchor_day,
    ...totalsOf(row.items),
    last_error: row.last_error,
    last_error_at: row.last_error_at?.toISOString() ?? null,
  };
}

export async function loadTemplate(conn: Conn, orgId: string, id: string, forUpdate = false): Promise<TemplateRow> {
  const q = conn
    .select()
    .from(recurringTemplates)
    .where(and(eq(recurringTemplates.org_id, orgId), eq(recurringTemplates.id, id)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Recurring invoice template');
  return row;
}

export async function createRecurringTemplate(db: Db, orgId: string, input: RecurringTemplateCreate): Promise<RecurringTemplate> {
  await checkContact(db, orgId, input.contact_id);
  const { items } = await prepareLines(db, orgId, input.items);
  const [row] = await db
    .insert(recurringTemplates)
    .values({
      org_id: orgId,
      contact_id: input.contact_id,
      frequency: input.frequency,
      items,
      next_generation_date: input.next_generation_date,
      anchor_day: anchorDayOf(input.next_generation_date),
      title: input.title ?? null,
      notes: input.notes ?? null,
      operation_nature: input.operation_nature ?? null,
      auto_send: input.auto_send,
      auto_collect_sepa: input.auto_collect_sepa,
    })
    .returning();
  return toPublicTemplate(row!);
}

/** Newest first; `status` and `contact_id` filter. */
export async function listRecurringTemplates(db: Db, orgId: string, query: RecurringListQuery): Promise<Page<RecurringTemplate>> {
  const rows = await db
    .select()
    .from(recurringTemplates)
    .where(
      and(
        eq(recurringTemplates.org_id, orgId),
        query.status === 'active' ? isNull(recurringTemplates.paused_at) : query.status === 'paused' ? isNotNull(recurringTemplates.paused_at) : undefined,
        query.contact_id ? eq(recurringTemplates.contact_id, query.contact_id) : undefined,
        afterCursor(recurringTemplates.id, query.cursor),
      ),
    )
    .orderBy(desc(recurringTemplates.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicTemplate);
}

export async function getRecurringTemplate(db: Db, orgId: string, id: string): Promise<RecurringTemplate> {
  return toPublicTemplate(await loadTemplate(db, orgId, id));
}

export async function updateRecurringTemplate(db: Db, orgId: string, id: string, patch: RecurringTemplatePatch): Promise<RecurringTemplate> {
  return db.transaction(async (tx) => {
    const row = await loadTemplate(tx, orgId, id, true);
    const changes: Partial<typeof recurringTemplates.$inferInsert> = {};
    if (patch.contact_id !== undefined) {
      await checkContact(tx, orgId, patch.contact_id);
      changes.contact_id = patch.contact_id;
    }
    if (patch.items !== undefined) changes.items = (await prepareLines(tx, orgId, patch.items)).items;
    if (patch.frequency !== undefined) changes.frequency = patch.frequency;
    if (patch.next_generation_date !== undefined) {
      changes.next_generation_date = patch.next_generation_date;
      changes.anchor_day = anchorDayOf(patch.next_generation_date);
    }
    for (const key of ['title', 'notes', 'operation_nature', 'auto_send', 'auto_collect_sepa'] as const) {
      if (patch[key] !== undefined) (changes as Record<string, unknown>)[key] = patch[key];
    }
    const autoSend = changes.auto_send ?? row.auto_send;
    const nature = changes.operation_nature !== undefined ? changes.operation_nature : row.operation_nature;
    if (autoSend && !nature) throw validationError('operation_nature', 'operation_nature: required when auto_send is true');
    if (Object.keys(changes).length === 0) return toPublicTemplate(row);
    const [updated] = await tx
      .update(recurringTemplates)
      .set({ ...changes, updated_at: new Date() })
      .where(and(eq(recurringTemplates.org_id, orgId), eq(recurringTemplates.id, id)))
      .returning();
    return toPublicTemplate(updated!);
  });
}

/** The template goes with its generation log; the invoices it generated stay. */
export async function deleteRecurringTemplate(db: Db, orgId: string, id: string): Promise<void> {
  const [row] = await db
    .delete(recurringTemplates)
    .where(and(eq(recurringTemplates.org_id, orgId), eq(recurringTemplates.id, id)))
    .returning({ id: recurringTemplates.id });
  if (!row) throw notFound('Recurring invoice template');
}

/** Idempotent: a paused template keeps its first paused_at. */
export async function pauseRecurringTemplate(db: Db, orgId: string, id: string, now = new Date()): Promise<RecurringTemplate> {
  return db.transaction(async (tx) => {
    const row = await loadTemplate(tx, orgId, id, true);
    if (row.paused_at) return toPublicTemplate(row);
    return toPublicTemplate(await setPaused(tx, row, now, now));
  });
}

/**
 * Active again from the first anchor date on or after today (Europe/Paris): the periods that passed while paused are
 * not generated (no backfill). Idempotent on an active template.
 */
export async function activateRecurringTemplate(db: Db, orgId: string, id: string, now = new Date()): Promise<RecurringTemplate> {
  return db.transaction(async (tx) => {
    const row = await loadTemplate(tx, orgId, id, true);
    if (!row.paused_at) return toPublicTemplate(row);
    const next = firstDateOnOrAfter(row.next_generation_date, row.frequency, row.anchor_day, todayParis(now));
    const [updated] = await tx
      .update(recurringTemplates)
      .set({ paused_at: null, next_generation_date: next, updated_at: now })
      .where(eq(recurringTemplates.id, row.id))
      .returning();
    return toPublicTemplate(updated!);
  });
}

export async function setPaused(tx: Tx, row: TemplateRow, pausedAt: Date | null, now: Date): Promise<TemplateRow> {
  const [updated] = await tx.update(recurringTemplates).set({ paused_at: pausedAt, updated_at: now }).where(eq(recurringTemplates.id, row.id)).returning();
  return updated!;
}
