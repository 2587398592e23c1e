import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { orgs, reminders } from '@/db/schema';
import { loadSettings } from '@/lib/domain/invoice-settings';
import type { DocumentRow } from '@/lib/domain/documents';
import { reminderTone } from '@/lib/platform/email';
import { ladderKindOf, ladderSteps } from './ladder';

/** Statuses in which a document is still chased: money or an answer is expected. */
export const CHASED_STATUSES = {
  payment: ['finalized', 'sent'],
  quote_expiry: ['finalized', 'sent'],
} as const;

/**
 * Arms the document's ladder from the org's settings, in the caller's transaction (the document row locked by
 * it, so two sends cannot arm it twice). Steps already past are recorded as `skipped` (reason past_at_send) so
 * the ladder shows whole; the others are `pending`. Nothing is armed for a credit note, a document without its
 * anchor date (due date; validity date of a quote), one no longer chased, or one that already has its ladder.
 * Returns how many reminders were armed (pending).
 */
export async function armLadder(tx: Tx, orgId: string, doc: DocumentRow, now: Date): Promise<number> {
  const kind = ladderKindOf(doc.type);
  if (!kind) return 0;
  const anchor = kind === 'payment' ? doc.due_date : doc.validity_date;
  if (!anchor || !(CHASED_STATUSES[kind] as readonly string[]).includes(doc.status)) return 0;

  const [existing] = await tx
    .select({ id: reminders.id })
    .from(reminders)
    .where(and(eq(reminders.org_id, orgId), eq(reminders.document_id, doc.id), inArray(reminders.kind, ['payment', 'quote_expiry'])))
    .limit(1);
  if (existing) return 0;

  const settings = await loadSettings(tx, orgId);
  const offsets = kind === 'payment' ? settings.payment_reminder_offsets : settings.quote_expiry_reminder_offsets;
  // Good Friday and 26 December are days off only where the org says it works in Alsace-Moselle.
  const [org] = await tx.select({ alsaceMoselle: orgs.alsace_moselle }).from(orgs).where(eq(orgs.id, orgId));
  const steps = ladderSteps(offsets, anchor, now, { alsaceMoselle: org?.alsaceMoselle ?? false });
  if (steps.length === 0) return 0;
  await tx.insert(reminders).values(
    steps.map((s) => ({
      org_id: orgId,
      document_id: doc.id,
      kind,
      step: s.step,
      offset_days: s.offset_days,
      scheduled_at: s.scheduled_at,
      status: s.past ? ('skipped' as const) : ('pending' as const),
      reason: s.past ? 'past_at_send' : null,
      // The voice escalates along the ladder: gentle up to the due date, firm after it, final at the last step.
      tone: kind === 'payment' ? reminderTone(s.offset_days, s.step === steps.length - 1) : null,
      created_at: now,
      updated_at: now,
    })),
  );
  return steps.filter((s) => !s.past).length;
}
