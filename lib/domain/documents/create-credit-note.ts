import type { Db, Tx } from '@/db/client';
import { validationError } from '@/lib/platform/errors';
import { chosenExemption, computeTotals } from '@/lib/platform/money';
import { invoiceLabel as label } from './allowed-actions';
import { insertDraft } from './create-document';
import { todayParis } from '@/lib/platform/dates';
import { type DocumentRow, loadDocument, loadItems, prepareItems, recordDocumentEvent, toItemInputs, withStates } from './documents';
import type { BillingDocument, CreditNoteBody } from './schemas';
import { assertAllowed } from './transitions';

/**
 * Inserts the draft credit note of a finalized invoice or deposit invoice: every line of it (full credit), or
 * the given lines, which may credit at most what the invoice billed in each VAT group (category, rate).
 */
export async function insertCreditNote(tx: Tx, orgId: string, invoice: DocumentRow, body: CreditNoteBody): Promise<DocumentRow> {
  const invoiceItems = await loadItems(tx, orgId, invoice.id);
  const lines = body.items
    ? await prepareItems(tx, orgId, body.items)
    : await prepareItems(tx, orgId, toItemInputs(invoiceItems), { copy: true });

  if (body.items) {
    // A credited exempt line states the exemption of the invoice it credits.
    for (const it of lines.items) it.vat_exemption_reason ??= chosenExemption(invoiceItems, it.vat_category);
    const billed = new Map(computeTotals(invoiceItems).groups.map((g) => [`${g.vat_category}|${g.vat_rate}`, g.base]));
    for (const group of lines.totals.groups) {
      const key = `${group.vat_category}|${group.vat_rate}`;
      const index = lines.items.findIndex((it) => `${it.vat_category}|${it.vat_rate}` === key);
      const max = billed.get(key);
      if (max === undefined) {
        throw validationError(`items.${index}.vat_rate`, `items.${index}.vat_rate: ${label(invoice)} has no line at ${group.vat_rate} % (category ${group.vat_category})`);
      }
      if (group.base > max) {
        throw validationError(`items.${index}.unit_price`, `items.${index}.unit_price: credits ${group.base} cents at ${group.vat_rate} %, more than the ${max} cents invoiced`);
      }
    }
  }

  const today = todayParis();
  return insertDraft(
    tx,
    orgId,
    {
      type: 'avoir',
      contact_id: invoice.contact_id,
      issue_date: today,
      due_date: null,
      validity_date: null,
      service_date: invoice.service_date,
      title: `Avoir sur ${label(invoice)}`,
      avoir_for_id: invoice.id,
      credit_reason_code: body.credit_reason_code,
      credit_reason_text: body.credit_reason_text ?? null,
      delivery_address: invoice.delivery_address,
      operation_nature: invoice.operation_nature,
      vat_exigibility: invoice.vat_exigibility,
      payment_plan_kind: 'none',
      payment_plan_config: null,
    },
    lines,
  );
}

/** POST /v1/invoices/{id}/credit-note: the draft credit note (at most one per invoice). */
export async function createCreditNote(db: Db, orgId: string, invoiceId: string, body: CreditNoteBody): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const invoice = await loadDocument(tx, orgId, invoiceId, true);
    await assertAllowed(tx, orgId, invoice, 'creditNote');
    const row = await insertCreditNote(tx, orgId, invoice, body);
    return recordDocumentEvent(tx, orgId, 'invoice.created', withStates(row));
  });
}
