import type { Db, Tx } from '@/db/client';
import { recordEvent } from '@/lib/platform/events';
import { draftDefaults, insertDraft } from './create-document';
import { deductionsAt, recordDeductions } from './deposit-deductions';
import { formatDay } from '@/lib/platform/format';
import { loadDocument, loadItems, loadLiveContact, prepareItems, recordDocumentEvent, toItemInputs, withStates } from './documents';
import { loadSettings } from '@/lib/domain/invoice-settings';
import type { BillingDocument, ItemInput } from './schemas';
import { assertAllowed } from './transitions';

class DryRun {
  constructor(readonly document: BillingDocument) {}
}

/**
 * POST /v1/invoices/{quote}/convert-to-facture: the draft invoice of a quote — its lines, then one discount
 * line per VAT group of each deposit invoice already issued on it (finalized, not cancelled), net of the credit
 * notes issued on that deposit, so the invoice asks only for the balance (lib/domain/documents/deposit-deductions.ts, which
 * also records them with the invoice). The quote itself is unchanged.
 *
 * dry_run runs the very same conversion in a transaction that is rolled back: the answer is exactly the
 * invoice a real call would create (its id is never stored), and nothing is written.
 */
export async function convertToFacture(db: Db, orgId: string, quoteId: string, { dryRun = false } = {}): Promise<BillingDocument> {
  try {
    return await db.transaction(async (tx) => {
      const invoice = await convert(tx, orgId, quoteId);
      if (dryRun) throw new DryRun(invoice);
      return invoice;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.document;
    throw err;
  }
}

async function convert(tx: Tx, orgId: string, quoteId: string): Promise<BillingDocument> {
  const quote = await loadDocument(tx, orgId, quoteId, true);
  await assertAllowed(tx, orgId, quote, 'convert');
  const contact = await loadLiveContact(tx, orgId, quote.contact_id);
  const settings = await loadSettings(tx, orgId);

  const quoteItems = await loadItems(tx, orgId, quote.id);
  const deductions = await deductionsAt(tx, orgId, quote, quoteItems);
  const inputs: ItemInput[] = toItemInputs(quoteItems).map((it, i) => ({ ...it, position: i }));
  for (const d of deductions) {
    const net = d.credits.length ? ` (net de l’avoir ${d.credits.map((c) => c.number).join(', ')})` : '';
    inputs.push({
      kind: 'discount',
      position: inputs.length,
      description: `Déduction de l’acompte ${d.deposit.number} du ${formatDay(d.deposit.issue_date, 'fr')}${net}`,
      unit_price: d.amount,
      vat_rate: d.vat_rate,
      vat_category: d.vat_category,
    });
  }

  const defaults = draftDefaults(
    'facture',
    { payment_terms: quote.payment_terms, discount_terms: quote.discount_terms, vat_exigibility: quote.vat_exigibility },
    contact,
    settings,
  );
  const row = await insertDraft(
    tx,
    orgId,
    {
      type: 'facture',
      contact_id: contact.id,
      ...defaults,
      validity_date: null,
      service_date: quote.service_date,
      title: quote.title,
      description: quote.description,
      notes: quote.notes,
      payment_method: quote.payment_method,
      delivery_address: quote.delivery_address,
      operation_nature: quote.operation_nature,
      converted_from_id: quote.id,
      payment_plan_kind: 'none',
      payment_plan_config: null,
    },
    await prepareItems(tx, orgId, inputs, { copy: true }),
  );
  // The deposits deducted are recorded with the invoice: its PDF and Factur-X name them from this record.
  await recordDeductions(tx, orgId, row.id, deductions);
  const invoice = await recordDocumentEvent(tx, orgId, 'invoice.created', withStates(row));
  // quote.converted carries the invoice: converted_from_id names the quote, so both are in the payload.
  await recordEvent(tx, orgId, 'quote.converted', invoice);
  return invoice;
}
