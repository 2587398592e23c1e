import { z } from 'zod';
import { type BillingDocument, deleteDocument, getDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';
import type { FormReply, StaffContext } from '@/lib/platform/next';
import { frenchRefusal } from '@/lib/platform/i18n';
import { addManualReminder } from '@/lib/domain/reminders';
import { SendDocumentInput, sendDocument } from '@/lib/domain/sending';
import { documentName, MAX_BULK } from './labels';

/*
 * The documents list's bulk actions: the selected documents, one by one, through the services their own page uses
 * (send, reminder, delete). Each one either succeeds or is reported with its reason; one failing never stops the
 * others, and none is half done (each service is its own transaction).
 */

export const BULK_OPERATIONS = ['send', 'remind', 'delete'] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];

/** Worded in French by lib/platform/i18n's catalogue, as every refusal of the back-office. */
export const BulkInput = z.object({
  op: z.enum(BULK_OPERATIONS),
  ids: z.array(z.uuid()).min(1).max(MAX_BULK),
});
export type BulkInput = z.infer<typeof BulkInput>;

/** The form's fields: the clicked button's `op`, every checked `ids`. */
export const readBulkForm = (form: FormData): BulkInput =>
  BulkInput.parse({ op: form.get('op') ?? undefined, ids: [...new Set(form.getAll('ids').map(String))] });

export interface BulkOutcome {
  id: string;
  name: string;
  ok: boolean;
  /** Why it was left out, in French (absent on success). */
  reason?: string;
}

const issued = (d: BillingDocument) => d.status !== 'draft';
const payable = (d: BillingDocument) => d.type === 'facture' || d.type === 'acompte';

/** Why a document is not one the action applies to, before any service is called; null when it is. */
export function bulkSkip(op: BulkOperation, d: BillingDocument): string | null {
  switch (op) {
    case 'send':
      if (!issued(d)) return 'brouillon';
      if (d.status !== 'finalized') return 'déjà envoyé';
      return null;
    case 'remind':
      if (!issued(d)) return 'brouillon';
      if (!payable(d)) return d.type === 'devis' ? 'devis' : 'avoir';
      if (d.status === 'finalized') return 'pas encore envoyé';
      if (d.status !== 'sent') return d.status === 'paid' ? 'déjà payé' : 'annulé';
      return null;
    case 'delete':
      return issued(d) ? 'pas un brouillon' : null;
  }
}

async function runOne(staff: StaffContext, op: BulkOperation, doc: BillingDocument): Promise<void> {
  const { db, orgId } = staff;
  if (op === 'send') await sendDocument(db, orgId, doc.id, SendDocumentInput.parse({}));
  else if (op === 'remind') await addManualReminder(db, orgId, doc.id, {});
  else await deleteDocument(db, orgId, doc.id);
}

/** The action on each selected document, in the order given. */
export async function runBulk(staff: StaffContext, input: BulkInput): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const id of input.ids) {
    let doc: BillingDocument;
    try {
      doc = await getDocument(staff.db, staff.orgId, id);
    } catch (err) {
      // Another org's id is as unknown as a deleted one.
      if (err instanceof ApiError && err.status === 404) {
        outcomes.push({ id, name: 'Document', ok: false, reason: 'introuvable' });
        continue;
      }
      throw err;
    }
    const name = documentName(doc);
    const skip = bulkSkip(input.op, doc);
    if (skip) {
      outcomes.push({ id, name, ok: false, reason: skip });
      continue;
    }
    try {
      await runOne(staff, input.op, doc);
      outcomes.push({ id, name, ok: true });
    } catch (err) {
      // The service's refusal (no e-mail address, client opted out…), in French; a bug still fails the request.
      if (!(err instanceof ApiError && err.status < 500)) throw err;
      const french = frenchRefusal(err);
      const reason = (french.field ?? french.line).replace(/\.$/, '');
      outcomes.push({ id, name, ok: false, reason: reason.charAt(0).toLowerCase() + reason.slice(1) });
    }
  }
  return outcomes;
}

const DONE: Record<BulkOperation, [string, string]> = {
  send: ['envoyé', 'envoyés'],
  remind: ['relancé', 'relancés'],
  delete: ['supprimé', 'supprimés'],
};

const plural = (n: number, [one, many]: [string, string]) => `${n} ${n > 1 ? many : one}`;

/** "3 documents envoyés, 1 ignoré (brouillon)": what was done, then what was left out grouped by reason. */
export function bulkSummary(op: BulkOperation, outcomes: BulkOutcome[]): string {
  const ok = outcomes.filter((o) => o.ok).length;
  const reasons = new Map<string, number>();
  for (const o of outcomes) if (!o.ok) reasons.set(o.reason ?? 'refusé', (reasons.get(o.reason ?? 'refusé') ?? 0) + 1);
  const skipped = outcomes.length - ok;
  const done = `${plural(ok, ['document', 'documents'])} ${ok > 1 ? DONE[op][1] : DONE[op][0]}`;
  if (!skipped) return `${done}.`;
  const why = reasons.size === 1 ? [...reasons.keys()][0] : [...reasons].map(([reason, n]) => `${n} ${reason}`).join(', ');
  return `${done}, ${plural(skipped, ['ignoré', 'ignorés'])} (${why}).`;
}

/** The handler of the list's bulk form: the summary to show, and each document's outcome. */
export async function bulkDocuments(staff: StaffContext, input: BulkInput): Promise<FormReply<BulkOutcome[]>> {
  const outcomes = await runBulk(staff, input);
  return { done: bulkSummary(input.op, outcomes), data: outcomes };
}
