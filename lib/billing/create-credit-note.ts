import { and, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documents } from '@/db/schema';
import { conflict, validationError } from '@/lib/errors';
import { computeTotals } from '@/lib/money';
import { insertDraft } from './create-document';
import { todayParis } from './dates';
import { type DocumentRow, loadDocument, loadItems, prepareItems, recordDocumentEvent, toItemInputs } from './documents';
import type { BillingDocument, CreditNoteBody } from './schemas';

const label = (doc: DocumentRow) => (doc.type === 'acompte' ? `la facture d'acompte ${doc.number}` : `la facture ${doc.number}`);

/** The live (not cancelled) credit note of an invoice, locked. */
export async function creditNoteOf(tx: Tx, orgId: string, invoiceId: string): Promise<DocumentRow | null> {
  const [row] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.org_id, orgId), eq(documents.avoir_for_id, invoiceId), ne(documents.status, 'cancelled')))
    .for('update');
  return row ?? null;
}

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

/** Why an invoice cannot be credited now (409), or nothing. */
export async function assertCreditable(tx: Tx, orgId: string, invoice: DocumentRow) {
  if (invoice.type !== 'facture' && invoice.type !== 'acompte') {
    throw conflict('not_creditable', `Only an invoice or a deposit invoice can be credited, not a ${invoice.type}.`);
  }
  if (!invoice.finalized_at) throw conflict('not_finalized', 'A draft is changed or deleted, not credited: finalize it first.');
  const existing = await creditNoteOf(tx, orgId, invoice.id);
  if (existing) {
    throw conflict('credit_note_exists', `${label(invoice)} already has a credit note (${existing.number ?? `draft ${existing.id}`}).`);
  }
}

/** POST /v1/invoices/{id}/credit-note: the draft credit note (at most one per invoice). */
export async function createCreditNote(db: Db, orgId: string, invoiceId: string, body: CreditNoteBody): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const invoice = await loadDocument(tx, orgId, invoiceId, true);
    await assertCreditable(tx, orgId, invoice);
    const row = await insertCreditNote(tx, orgId, invoice, body);
    return recordDocumentEvent(tx, orgId, 'invoice.created', row);
  });
}
