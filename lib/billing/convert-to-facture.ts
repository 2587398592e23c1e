import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { documentItems, documents } from '@/db/schema';
import { recordEvent } from '@/lib/events/events';
import { computeTotals } from '@/lib/money';
import { draftDefaults, insertDraft } from './create-document';
import { frenchDate, todayParis } from './dates';
import { loadDocument, loadItems, loadLiveContact, prepareItems, recordDocumentEvent, toItemInputs } from './documents';
import { loadSettings } from './invoice-settings';
import type { BillingDocument, ItemInput } from './schemas';
import { assertConvertible } from './transitions';

class DryRun {
  constructor(readonly document: BillingDocument) {}
}

/**
 * POST /v1/invoices/{quote}/convert-to-facture: the draft invoice of a quote — its lines, then one discount
 * line per VAT group of each deposit invoice already issued on it (finalized, not cancelled), net of the credit
 * notes issued on that deposit, so the invoice asks only for the balance. The quote itself is unchanged.
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
  await assertConvertible(tx, orgId, quote, todayParis());
  const contact = await loadLiveContact(tx, orgId, quote.contact_id);
  const settings = await loadSettings(tx, orgId);

  const quoteItems = await loadItems(tx, orgId, quote.id);
  const deposits = await tx
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.org_id, orgId),
        eq(documents.parent_devis_id, quote.id),
        eq(documents.type, 'acompte'),
        isNotNull(documents.finalized_at),
        ne(documents.status, 'cancelled'),
      ),
    )
    .orderBy(asc(documents.chain_index));
  // A deposit partly credited since (a finalized avoir on it) is deducted net of what was credited.
  const credits = deposits.length
    ? await tx
        .select()
        .from(documents)
        .where(
          and(
            eq(documents.org_id, orgId),
            eq(documents.type, 'avoir'),
            inArray(
              documents.avoir_for_id,
              deposits.map((d) => d.id),
            ),
            isNotNull(documents.finalized_at),
          ),
        )
        .orderBy(asc(documents.chain_index))
    : [];
  const linked = [...deposits, ...credits].map((d) => d.id);
  const depositItems = linked.length
    ? await tx
        .select()
        .from(documentItems)
        .where(and(eq(documentItems.org_id, orgId), inArray(documentItems.document_id, linked)))
    : [];
  const groupsOf = (documentId: string) => computeTotals(depositItems.filter((it) => it.document_id === documentId)).groups;

  const inputs: ItemInput[] = toItemInputs(quoteItems).map((it, i) => ({ ...it, position: i }));
  // What is left to bill per VAT group: deposits rounded one by one can overshoot a group by a cent at 100 %.
  const left = new Map(computeTotals(quoteItems).groups.map((g) => [`${g.vat_category}|${g.vat_rate}`, g.base]));
  for (const deposit of deposits) {
    const depositCredits = credits.filter((c) => c.avoir_for_id === deposit.id);
    const credited = new Map<string, number>();
    for (const credit of depositCredits) {
      for (const g of groupsOf(credit.id)) credited.set(`${g.vat_category}|${g.vat_rate}`, (credited.get(`${g.vat_category}|${g.vat_rate}`) ?? 0) + g.base);
    }
    const net = depositCredits.length ? ` (net de l'avoir ${depositCredits.map((c) => c.number).join(', ')})` : '';
    for (const group of groupsOf(deposit.id)) {
      const key = `${group.vat_category}|${group.vat_rate}`;
      const amount = Math.min(group.base - (credited.get(key) ?? 0), left.get(key) ?? 0);
      if (amount <= 0) continue;
      left.set(key, (left.get(key) ?? 0) - amount);
      inputs.push({
        kind: 'discount',
        position: inputs.length,
        description: `Déduction de l'acompte ${deposit.number} du ${frenchDate(deposit.issue_date)}${net}`,
        unit_price: amount,
        vat_rate: group.vat_rate,
        vat_category: group.vat_category,
      });
    }
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
  const invoice = await recordDocumentEvent(tx, orgId, 'invoice.created', row);
  // quote.converted carries the invoice: converted_from_id names the quote, so both are in the payload.
  await recordEvent(tx, orgId, 'quote.converted', invoice);
  return invoice;
}
