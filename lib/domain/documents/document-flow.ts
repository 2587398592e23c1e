import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documents, payments } from '@/db/schema';
import { type DocumentRow, loadDocument } from './documents';
import type { DocumentFlow } from './schemas';

const ROLE = { devis: 'quote', acompte: 'deposit', facture: 'invoice', avoir: 'credit_note' } as const;
const CLOSING = new Set(['accepted', 'rejected', 'expired', 'cancelled', 'paid']);

/**
 * A document's family — the quote at its root, the deposit invoices and the invoice taken from it, and the
 * credit notes of those — and its history: created, finalized, sent, each payment, and the closing status
 * changes (accepted, rejected, expired, cancelled, paid), oldest first.
 */
export async function documentFlow(db: Db, orgId: string, id: string): Promise<DocumentFlow> {
  const doc = await loadDocument(db, orgId, id);
  let root = doc;
  if (root.avoir_for_id) root = await loadDocument(db, orgId, root.avoir_for_id);
  const parentId = root.parent_devis_id ?? root.converted_from_id;
  if (parentId) root = await loadDocument(db, orgId, parentId);

  const children =
    root.type === 'devis'
      ? await db
          .select()
          .from(documents)
          .where(and(eq(documents.org_id, orgId), or(eq(documents.parent_devis_id, root.id), eq(documents.converted_from_id, root.id))))
      : [];
  const billed = [root, ...children].filter((d) => d.type === 'facture' || d.type === 'acompte');
  const creditNotes = billed.length
    ? await db
        .select()
        .from(documents)
        .where(and(eq(documents.org_id, orgId), inArray(documents.avoir_for_id, billed.map((d) => d.id))))
    : [];
  const family: DocumentRow[] = [root, ...children, ...creditNotes].sort((a, b) => (a.id < b.id ? -1 : 1));

  const paid = await db
    .select()
    .from(payments)
    .where(and(eq(payments.org_id, orgId), inArray(payments.document_id, family.map((d) => d.id))))
    .orderBy(asc(payments.id));
  const paidBy = new Map<string, number>();
  for (const p of paid) paidBy.set(p.document_id, (paidBy.get(p.document_id) ?? 0) + p.amount);

  type Entry = DocumentFlow['history'][number];
  const history: Entry[] = [];
  const entry = (d: DocumentRow, at: Date, event: string, extra: Partial<Entry> = {}): Entry => ({
    at: at.toISOString(),
    event,
    document_id: d.id,
    document_type: d.type,
    number: d.number,
    amount: null,
    payment_id: null,
    ...extra,
  });
  for (const d of family) {
    history.push(entry(d, d.created_at, 'created'));
    if (d.finalized_at) history.push(entry(d, d.finalized_at, 'finalized'));
    if (d.sent_at) history.push(entry(d, d.sent_at, 'sent'));
    if (d.status_changed_at && CLOSING.has(d.status)) history.push(entry(d, d.status_changed_at, d.status));
  }
  const byId = new Map(family.map((d) => [d.id, d]));
  for (const p of paid) {
    history.push(entry(byId.get(p.document_id)!, p.created_at, 'payment', { amount: p.amount, payment_id: p.id, paid_at: p.paid_at }));
  }
  // Same instant (a cancellation and its credit note): creation before finalization before closing.
  const order = ['created', 'finalized', 'sent', 'payment'];
  const rank = (e: Entry) => (order.includes(e.event) ? order.indexOf(e.event) : order.length);
  history.sort((a, b) => a.at.localeCompare(b.at) || rank(a) - rank(b));

  return {
    document_id: doc.id,
    root_id: root.id,
    documents: family.map((d) => ({
      id: d.id,
      type: d.type,
      role: ROLE[d.type],
      status: d.status,
      number: d.number,
      issue_date: d.issue_date,
      total_ht: d.total_ht,
      total_ttc: d.total_ttc,
      total_paid: paidBy.get(d.id) ?? 0,
      finalized_at: d.finalized_at?.toISOString() ?? null,
      converted_from_id: d.converted_from_id,
      parent_devis_id: d.parent_devis_id,
      avoir_for_id: d.avoir_for_id,
    })),
    history,
  };
}
