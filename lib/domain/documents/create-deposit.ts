import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documents } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { formatDecimal } from '@/lib/platform/format';
import { chosenExemption, computeTotals, Dec, prorateGroups } from '@/lib/platform/money';
import { insertDraft } from './create-document';
import { todayParis } from '@/lib/platform/dates';
import { documentLanguage, paymentTerms } from '@/lib/domain/facturx';
import { loadDocument, loadItems, loadLiveContact, prepareItems, recordDocumentEvent, withStates } from './documents';
import type { BillingDocument, ItemInput } from './schemas';
import { assertAllowed } from './transitions';


/**
 * POST /v1/invoices/{quote}/deposit: a draft deposit invoice for a share of the quote. The share is taken of
 * each VAT group's base (one line per rate, rounded once per group), so the deposit carries the quote's VAT
 * mix; the deposits of a quote (cancelled ones aside) may not exceed 100 %.
 */
export async function createDeposit(
  db: Db,
  orgId: string,
  quoteId: string,
  body: { percentage?: string },
  // A signed quote's installments fall due month after month (lib/domain/signed-quotes); the API's deposit is due on receipt.
  options: { dueDate?: string } = {},
): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const quote = await loadDocument(tx, orgId, quoteId, true);
    const today = todayParis();
    await assertAllowed(tx, orgId, quote, 'deposit', today);

    const planned = quote.payment_plan_kind === 'deposit_then_balance' ? (quote.payment_plan_config as { percentage?: string } | null)?.percentage : undefined;
    const percentage = body.percentage ?? quote.deposit_request_percentage ?? planned;
    if (!percentage) throw validationError('percentage', 'percentage: required (the quote has no deposit_request_percentage)');

    const earlier = await tx
      .select({ percentage: documents.acompte_percentage })
      .from(documents)
      .where(and(eq(documents.org_id, orgId), eq(documents.parent_devis_id, quote.id), eq(documents.type, 'acompte'), ne(documents.status, 'cancelled')));
    const requested = earlier.reduce((sum, d) => sum.plus(d.percentage ?? 0), new Dec(0));
    if (requested.plus(percentage).gt(100)) {
      throw validationError('percentage', `percentage: with the ${requested.toFixed()} % already invoiced as deposits, the quote would exceed 100 %`);
    }

    const quoteItems = await loadItems(tx, orgId, quote.id);
    const shares = prorateGroups(computeTotals(quoteItems).groups, percentage);
    if (shares.length === 0) throw validationError('percentage', 'percentage: the deposit would be zero');
    const inputs: ItemInput[] = shares.map((share, i) => ({
      kind: 'product',
      position: i,
      description: `Acompte de ${formatDecimal(percentage, 'fr')} % sur le devis ${quote.number}${shares.length > 1 ? ` (TVA ${formatDecimal(share.vat_rate, 'fr')} %)` : ''}`,
      quantity: '1',
      unit_price: share.amount,
      vat_rate: share.vat_rate,
      vat_category: share.vat_category,
      vat_exemption_reason: chosenExemption(quoteItems, share.vat_category),
    }));
    const contact = await loadLiveContact(tx, orgId, quote.contact_id);
    // A deposit is asked for on receipt (an installment of a signed quote: on its own day).
    const due_date = options.dueDate ?? today;
    // The terms stored are those the deposit prints and its Factur-X states (BT-20): the quote's when they give this
    // due date, else the ones lib/domain/facturx paymentTerms says from the dates (« Payable à réception »), in the
    // contact's language — the document's while it is a draft.
    const payment_terms = paymentTerms({
      type: 'acompte',
      language: documentLanguage(undefined, contact.preferred_language),
      issue_date: today,
      due_date,
      payment_terms: quote.payment_terms,
    });
    const row = await insertDraft(
      tx,
      orgId,
      {
        type: 'acompte',
        contact_id: contact.id,
        issue_date: today,
        due_date,
        validity_date: null,
        service_date: null,
        title: quote.title ? `Acompte — ${quote.title}` : `Acompte sur le devis ${quote.number}`,
        parent_devis_id: quote.id,
        acompte_percentage: new Dec(percentage).toFixed(),
        payment_terms,
        payment_method: quote.payment_method,
        discount_terms: quote.discount_terms,
        delivery_address: quote.delivery_address,
        operation_nature: quote.operation_nature,
        vat_exigibility: quote.vat_exigibility,
        payment_plan_kind: 'none',
        payment_plan_config: null,
      },
      await prepareItems(tx, orgId, inputs, { copy: true }),
    );
    return recordDocumentEvent(tx, orgId, 'invoice.created', withStates(row));
  });
}
