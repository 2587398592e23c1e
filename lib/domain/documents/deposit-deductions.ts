import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { depositDeductions, documentItems, documents } from '@/db/schema';
import { computeTotals, type VatCategory } from '@/lib/platform/money';
import type { Conn, DocumentRow, ItemRow } from './documents';

/**
 * Which deposit invoices a final invoice deducts, and how much of each — one rule, decided once: at the
 * conversion of the quote (`deductionsAt`), recorded with the invoice (`recordDeductions`, table
 * deposit_deductions, frozen with the invoice once finalized), and read back by whatever states them later:
 * the PDF's "deposits deducted" list and the Factur-X preceding invoices (`deductedDeposits`).
 */

/** What one discount line of the final invoice takes off: a deposit's share of one VAT group, net of its credit notes. */
export interface Deduction {
  deposit: DocumentRow;
  /** The finalized credit notes issued on that deposit, netted off (the line says so). */
  credits: DocumentRow[];
  vat_category: VatCategory;
  vat_rate: string;
  /** Cents excluding VAT, > 0. */
  amount: number;
}

/**
 * The deductions a conversion of `quote` makes now: every finalized, non-cancelled deposit invoice of the quote
 * (in chain order), each VAT group of it net of the finalized credit notes issued on it since (a fully credited
 * deposit is not deducted), capped at what is left of the quote's group (deposits rounded one by one can
 * overshoot a group by a cent at 100 %). Draft deposits are not deducted.
 */
export async function deductionsAt(tx: Tx, orgId: string, quote: DocumentRow, quoteItems: readonly ItemRow[]): Promise<Deduction[]> {
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
  if (deposits.length === 0) return [];
  const credits = await tx
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
    .orderBy(asc(documents.chain_index));
  const linked = [...deposits, ...credits].map((d) => d.id);
  const items = await tx
    .select()
    .from(documentItems)
    .where(and(eq(documentItems.org_id, orgId), inArray(documentItems.document_id, linked)));
  const groupsOf = (documentId: string) => computeTotals(items.filter((it) => it.document_id === documentId)).groups;
  const key = (g: { vat_category: string; vat_rate: string }) => `${g.vat_category}|${g.vat_rate}`;

  // What is left to bill per VAT group of the quote.
  const left = new Map(computeTotals(quoteItems).groups.map((g) => [key(g), g.base]));
  const deductions: Deduction[] = [];
  for (const deposit of deposits) {
    const depositCredits = credits.filter((c) => c.avoir_for_id === deposit.id);
    const credited = new Map<string, number>();
    for (const credit of depositCredits) {
      for (const g of groupsOf(credit.id)) credited.set(key(g), (credited.get(key(g)) ?? 0) + g.base);
    }
    for (const group of groupsOf(deposit.id)) {
      const amount = Math.min(group.base - (credited.get(key(group)) ?? 0), left.get(key(group)) ?? 0);
      if (amount <= 0) continue;
      left.set(key(group), (left.get(key(group)) ?? 0) - amount);
      deductions.push({ deposit, credits: depositCredits, vat_category: group.vat_category, vat_rate: group.vat_rate, amount });
    }
  }
  return deductions;
}

/** Records the deductions of a new draft invoice (its discount lines are written by the caller). */
export async function recordDeductions(tx: Tx, orgId: string, invoiceId: string, deductions: readonly Deduction[]): Promise<void> {
  if (deductions.length === 0) return;
  await tx.insert(depositDeductions).values(
    deductions.map((d) => ({
      org_id: orgId,
      document_id: invoiceId,
      deposit_id: d.deposit.id,
      vat_category: d.vat_category,
      vat_rate: d.vat_rate,
      amount: d.amount,
    })),
  );
}

/** A deposit invoice as a final invoice deducts it. */
export interface DeductedDeposit {
  deposit: DocumentRow;
  groups: Array<{ vat_category: VatCategory; vat_rate: string; amount: number }>;
  /** What was deducted, net of the deposit's credit notes: Σ group amounts, and with each group's VAT (rounded once per group). */
  total_ht: number;
  total_tva: number;
  total_ttc: number;
}

/** The deposits an invoice deducts, as recorded at its conversion, in the deposits' chain order ([] for any other document). */
export async function deductedDeposits(conn: Conn, orgId: string, invoiceId: string): Promise<DeductedDeposit[]> {
  const rows = await conn
    .select({ deduction: depositDeductions, deposit: documents })
    .from(depositDeductions)
    .innerJoin(documents, eq(documents.id, depositDeductions.deposit_id))
    .where(and(eq(depositDeductions.org_id, orgId), eq(depositDeductions.document_id, invoiceId)))
    .orderBy(asc(documents.chain_index), asc(depositDeductions.vat_category), asc(depositDeductions.vat_rate));
  const byDeposit = new Map<string, DeductedDeposit>();
  for (const { deduction, deposit } of rows) {
    const entry = byDeposit.get(deposit.id) ?? { deposit, groups: [], total_ht: 0, total_tva: 0, total_ttc: 0 };
    entry.groups.push({ vat_category: deduction.vat_category, vat_rate: deduction.vat_rate, amount: deduction.amount });
    byDeposit.set(deposit.id, entry);
  }
  return [...byDeposit.values()].map((entry) => {
    const totals = computeTotals(entry.groups.map((g) => ({ kind: 'product', quantity: '1', unit_price: g.amount, vat_rate: g.vat_rate, vat_category: g.vat_category })));
    return { ...entry, total_ht: totals.total_ht, total_tva: totals.total_tva, total_ttc: totals.total_ttc };
  });
}
