import type { Db } from '@/db/client';
import { type BillingDocument, documentView, loadDocument } from '@/lib/domain/documents';
import { deliverGeneration } from './deliver';
import { generatePeriod } from './generate';
import { loadTemplate } from './templates';

/**
 * POST /v1/recurring-invoices/{id}/run: generates the template's current period now (paused or not, due or not), then
 * the date advances. With auto_send the invoice is finalized, sent (and debited) here, and the document answered is
 * as it stands after. A draft refused (contact erased, lines invalid) is recorded (generation failed, template
 * paused, recurring_invoice.failed) and answered as the refusal.
 */
export async function runRecurringTemplate(db: Db, orgId: string, id: string, now = new Date()): Promise<BillingDocument> {
  const template = await loadTemplate(db, orgId, id);
  const made = (await generatePeriod(db, orgId, id, { now, source: 'run', dueOnly: false }))!;
  if (!made.document) throw made.refusal!;
  if (!template.auto_send) return made.document;
  await deliverGeneration(db, orgId, made.generation.id, now);
  return documentView(db, orgId, await loadDocument(db, orgId, made.document.id));
}
