import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '@/db/client';
import { rowsQuery, selectionQuery } from '@/db/prepared';
import { type contacts, documentItems, documentRenders, documents, einvoicingDocumentStates, products, type RENDER_STATUSES, type TRANSMISSION_STATUSES } from '@/db/schema';
import { displayName, findContact } from '@/lib/domain/contacts';
import { notFound, validationError } from '@/lib/platform/errors';
import { type EventType, recordEvent } from '@/lib/platform/events';
import { AmountOverflowError, checkDiscounts, computeTotals, Dec, defaultVatCategory, type DocumentTotals, Quantity, type TotalsLine, type VatCategory } from '@/lib/platform/money';
import type { BillingDocument, DocumentItem, ItemInput } from './schemas';
import { unitCodeOf } from './units';

/** A transaction handle: the same query API as Db. */
export type Conn = Tx | Db;
export type DocumentRow = typeof documents.$inferSelect;
export type DocumentInsert = typeof documents.$inferInsert;
export type ItemRow = typeof documentItems.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * What other modules own about a document and the billing document shows: the render state (pdf's
 * document_renders.status) and the e-invoicing summary (einvoicing's einvoicing_document_states). Only those modules
 * write them; documents reads them back with the row, joined by the document's primary key.
 */
export interface DocumentStates {
  render_status: (typeof RENDER_STATUSES)[number];
  transmission_status: (typeof TRANSMISSION_STATUSES)[number];
  transmission_id: string | null;
  lifecycle_status: string | null;
  lifecycle_reason: string | null;
  lifecycle_at: Date | null;
}
/** A document's row with its states: what loadDocument and the lists read, what the API view is built from. */
export type FullDocumentRow = DocumentRow & DocumentStates;

/**
 * The states of a document no other module has written about yet: a draft, or a document this transaction has just
 * finalized. Its PDF is pending; its transmission pending when the finalization decided it goes to the PA.
 */
export function initialStates(row: Pick<DocumentRow, 'transmission_required'>): DocumentStates {
  return {
    render_status: 'pending',
    transmission_status: row.transmission_required ? 'pending' : 'not_required',
    transmission_id: null,
    lifecycle_status: null,
    lifecycle_reason: null,
    lifecycle_at: null,
  };
}

/**
 * The row documents just wrote, with its states: those it had (`before`, read with it in this transaction: documents'
 * own writes never change them) or, for a draft or a document just finalized, the initial ones.
 */
export function withStates(row: DocumentRow, before?: DocumentStates): FullDocumentRow {
  const states = before ?? initialStates(row);
  return {
    ...row,
    render_status: states.render_status,
    transmission_status: states.transmission_status,
    transmission_id: states.transmission_id,
    lifecycle_status: states.lifecycle_status,
    lifecycle_reason: states.lifecycle_reason,
    lifecycle_at: states.lifecycle_at,
  };
}

/**
 * The columns of a full document row, over `documents` left-joined to document_renders and einvoicing_document_states
 * on the document's id (their primary keys): no row reads as initialStates says. `updated_at` is the latest change of
 * the document or its states, as when they were the document's own columns.
 */
export const fullDocumentColumns = {
  ...getTableColumns(documents),
  updated_at: sql<Date>`greatest(${documents.updated_at}, ${documentRenders.updated_at}, ${einvoicingDocumentStates.updated_at})`.mapWith(documents.updated_at),
  render_status: sql<DocumentStates['render_status']>`coalesce(${documentRenders.status}, 'pending')`,
  transmission_status: sql<DocumentStates['transmission_status']>`coalesce(${einvoicingDocumentStates.transmission_status}, case when ${documents.transmission_required} then 'pending' else 'not_required' end)`,
  transmission_id: einvoicingDocumentStates.transmission_id,
  lifecycle_status: einvoicingDocumentStates.lifecycle_status,
  lifecycle_reason: einvoicingDocumentStates.lifecycle_reason,
  lifecycle_at: einvoicingDocumentStates.lifecycle_at,
};

/** `select … from documents` with its states joined (add where, order, limit); `extra` columns come after them. */
export function selectFullDocuments<E extends SelectedFields = Record<never, never>>(conn: Conn, extra?: E) {
  return conn
    .select({ ...fullDocumentColumns, ...((extra ?? {}) as E) })
    .from(documents)
    .leftJoin(documentRenders, eq(documentRenders.document_id, documents.id))
    .leftJoin(einvoicingDocumentStates, eq(einvoicingDocumentStates.document_id, documents.id));
}

const documentByKey = (db: Db) => selectFullDocuments(db).where(and(eq(documents.org_id, sql.placeholder('org_id')), eq(documents.id, sql.placeholder('id'))));
const documentRow = selectionQuery<FullDocumentRow, { org_id: string; id: string }>(fullDocumentColumns, documentByKey);
// The document's row only: the joined states are other modules' rows, which they lock themselves.
const lockedDocumentRow = selectionQuery<FullDocumentRow, { org_id: string; id: string }>(fullDocumentColumns, (db) => documentByKey(db).for('update', { of: documents }));

/** The org's document with its states, or 404; `forUpdate` locks the document's row until the transaction ends. */
export async function loadDocument(conn: Conn, orgId: string, id: string, forUpdate = false): Promise<FullDocumentRow> {
  const [row] = await (forUpdate ? lockedDocumentRow : documentRow)(conn, { org_id: orgId, id });
  if (!row) throw notFound('Document');
  return row;
}

const itemRows = rowsQuery(documentItems, (db) =>
  db
    .select()
    .from(documentItems)
    .where(and(eq(documentItems.org_id, sql.placeholder('org_id')), eq(documentItems.document_id, sql.placeholder('document_id'))))
    .orderBy(asc(documentItems.position), asc(documentItems.id)),
);

/** Items in print order (position, then insertion order). */
export async function loadItems(conn: Conn, orgId: string, documentId: string): Promise<ItemRow[]> {
  return itemRows(conn, { org_id: orgId, document_id: documentId });
}

/** A contact that no longer exists for the org: soft-deleted (merged, erased) or absent. */
export const contactGone = (c: Pick<ContactRow, 'deleted_at' | 'erased_at'> | null | undefined) => !c || c.deleted_at !== null || c.erased_at !== null;

/**
 * contact_name per the spec: the frozen snapshot once finalized, else the live contact, null when the contact
 * no longer exists (deleted, merged away or erased).
 */
export function contactNameOf(row: Pick<DocumentRow, 'finalized_at' | 'client_snapshot'>, contact: Pick<ContactRow, 'company' | 'first_name' | 'last_name' | 'deleted_at' | 'erased_at'> | null) {
  if (row.finalized_at) return ((row.client_snapshot as { name?: string | null } | null)?.name ?? null) as string | null;
  return contactGone(contact) ? null : displayName(contact!);
}

/** The document's contact as contacts keeps it (deleted, merged, erased included), or null. */
export function loadContactRow(conn: Conn, orgId: string, contactId: string): Promise<ContactRow | null> {
  return findContact(conn, orgId, contactId);
}

/** The contact a draft may be addressed to: one of the org's live contacts, else 422 on `field`. */
export async function loadLiveContact(conn: Conn, orgId: string, contactId: string, field = 'contact_id'): Promise<ContactRow> {
  const c = await loadContactRow(conn, orgId, contactId);
  if (!c) throw validationError(field, `${field}: no such contact`);
  if (c.erased_at) throw validationError(field, `${field}: this contact was erased`);
  if (c.merged_into_id) throw validationError(field, `${field}: this contact was merged into ${c.merged_into_id}`);
  if (c.deleted_at) throw validationError(field, `${field}: this contact is deleted; restore it first`);
  return c;
}

export function toPublicItem(row: ItemRow): DocumentItem {
  return {
    id: row.id,
    description: row.description,
    details: row.details,
    kind: row.kind,
    position: row.position,
    quantity: row.quantity,
    unit: row.unit,
    unit_price: row.unit_price,
    vat_rate: row.vat_rate,
    vat_category: row.vat_category,
    vat_exemption_reason: row.vat_exemption_reason,
    product_id: row.product_id,
    total_ht: row.total_ht,
    total_ttc: row.total_ttc,
  };
}

/** The API representation; `items` undefined leaves the key out (lists). */
export function toPublicDocument(row: FullDocumentRow, items: ItemRow[] | undefined, contactName: string | null): BillingDocument {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    contact_id: row.contact_id,
    contact_name: contactName,
    client_snapshot: row.client_snapshot as BillingDocument['client_snapshot'],
    seller_snapshot: row.seller_snapshot as BillingDocument['seller_snapshot'],
    number: row.number,
    issue_date: row.issue_date,
    due_date: row.due_date,
    service_date: row.service_date,
    validity_date: row.validity_date,
    title: row.title,
    description: row.description,
    notes: row.notes,
    ...(items ? { items: items.map(toPublicItem) } : {}),
    total_ht: row.total_ht,
    total_tva: row.total_tva,
    total_ttc: row.total_ttc,
    finalized_at: iso(row.finalized_at),
    content_hash: row.content_hash,
    prev_hash: row.prev_hash,
    chain_index: row.chain_index,
    converted_from_id: row.converted_from_id,
    parent_devis_id: row.parent_devis_id,
    avoir_for_id: row.avoir_for_id,
    acompte_percentage: row.acompte_percentage,
    deposit_request_percentage: row.deposit_request_percentage,
    credit_reason_code: row.credit_reason_code,
    credit_reason_text: row.credit_reason_text,
    delivery_address: row.delivery_address as BillingDocument['delivery_address'],
    discount_terms: row.discount_terms,
    payment_terms: row.payment_terms,
    payment_method: row.payment_method,
    execution_timeline: row.execution_timeline,
    operation_nature: row.operation_nature,
    vat_exigibility: row.vat_exigibility,
    payment_plan_kind: row.payment_plan_kind,
    payment_plan_config: row.payment_plan_config as BillingDocument['payment_plan_config'],
    render_status: row.render_status,
    transmission_status: row.transmission_status,
    transmission_id: row.transmission_id,
    lifecycle_status: row.lifecycle_status,
    lifecycle_reason: row.lifecycle_reason,
    lifecycle_at: iso(row.lifecycle_at),
    sent_at: iso(row.sent_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** What the caller already read in its transaction: its lines as loadItems reads them, its contact row. */
export interface KnownParts {
  items?: ItemRow[];
  contact?: ContactRow | null;
}

/** The full representation of one document (items and contact name loaded, unless the caller has them). */
export async function documentView(conn: Conn, orgId: string, row: FullDocumentRow, known: KnownParts = {}): Promise<BillingDocument> {
  const items = known.items ?? (await loadItems(conn, orgId, row.id));
  const contact = row.finalized_at ? null : known.contact !== undefined ? known.contact : await loadContactRow(conn, orgId, row.contact_id);
  return toPublicDocument(row, items, contactNameOf(row, contact));
}

/** Writes the event with the document as the API shows it, in the caller's transaction; returns that view. */
export async function recordDocumentEvent(tx: Tx, orgId: string, type: EventType, row: FullDocumentRow, known: KnownParts = {}): Promise<BillingDocument> {
  const view = await documentView(tx, orgId, row, known);
  await recordEvent(tx, orgId, type, view);
  return view;
}

// ─── Lines ──────────────────────────────────────────────────────────────────

export interface PreparedItem {
  position: number;
  kind: 'product' | 'discount';
  description: string;
  details: string | null;
  quantity: string;
  unit: string | null;
  unit_price: number;
  vat_rate: string;
  vat_category: VatCategory;
  vat_exemption_reason: string | null;
  product_id: string | null;
  total_ht: number;
  total_ttc: number;
}

export interface PreparedLines {
  items: PreparedItem[];
  totals: DocumentTotals;
}

/**
 * Validates line inputs and computes their totals: fills the blanks from the catalogue product, defaults the
 * kind and VAT category, stores discounts as quantity "-1", and refuses a discount larger than what it
 * reduces. Errors name the field as `{prefix}.{index}.{key}`.
 */
export async function prepareItems(
  conn: Conn,
  orgId: string,
  inputs: readonly ItemInput[],
  { prefix = 'items', copy = false }: { prefix?: string; copy?: boolean } = {},
): Promise<PreparedLines> {
  // Copied lines (duplicate, conversion, credit note) are complete: their product may since have left the catalogue.
  const productIds = copy ? [] : [...new Set(inputs.map((i) => i.product_id).filter((id): id is string => Boolean(id)))];
  const catalogue = new Map(
    productIds.length
      ? (
          await conn
            .select()
            .from(products)
            .where(and(eq(products.org_id, orgId), inArray(products.id, productIds)))
        ).map((p) => [p.id, p])
      : [],
  );

  const items = inputs.map((input, i) => {
    const field = (key: string) => `${prefix}.${i}.${key}`;
    const product = input.product_id && !copy ? catalogue.get(input.product_id) : undefined;
    if (input.product_id && !copy && !product) throw validationError(field('product_id'), `${field('product_id')}: no such product`);

    const kind = input.kind ?? (input.quantity !== undefined && new Dec(input.quantity).eq(-1) ? 'discount' : 'product');
    const description = input.description ?? product?.name;
    if (!description) throw validationError(field('description'), `${field('description')}: required`);
    const unit_price = input.unit_price ?? product?.unit_price_cents;
    if (unit_price === undefined) throw validationError(field('unit_price'), `${field('unit_price')}: required`);
    const vat_rate = input.vat_rate ?? product?.vat_rate;
    if (vat_rate === undefined) throw validationError(field('vat_rate'), `${field('vat_rate')}: required`);

    let quantity: string;
    if (kind === 'discount') {
      if (input.quantity !== undefined && !new Dec(input.quantity).abs().eq(1)) {
        throw validationError(field('quantity'), `${field('quantity')}: a discount line has quantity "-1" (or omit it); its unit_price is the amount taken off`);
      }
      quantity = '-1';
    } else {
      if (input.quantity === undefined) throw validationError(field('quantity'), `${field('quantity')}: required`);
      const parsed = Quantity.safeParse(input.quantity);
      if (!parsed.success) throw validationError(field('quantity'), `${field('quantity')}: ${parsed.error.issues[0]?.message}`);
      quantity = parsed.data;
    }

    const rateIsZero = new Dec(vat_rate).isZero();
    const vat_category = input.vat_category ?? defaultVatCategory(vat_rate);
    if (vat_category === 'S' && rateIsZero) {
      throw validationError(field('vat_category'), `${field('vat_category')}: S (standard) needs a rate above 0; at 0 % use Z, E, AE, K, G or O`);
    }
    if (vat_category !== 'S' && !rateIsZero) {
      throw validationError(field('vat_category'), `${field('vat_category')}: ${vat_category} applies at a 0 % rate only`);
    }

    return {
      position: input.position ?? i,
      kind,
      description,
      details: input.details !== undefined ? input.details : (product?.description ?? null),
      quantity,
      unit: input.unit !== undefined ? input.unit : unitCodeOf(product?.unit ?? null),
      unit_price,
      vat_rate,
      vat_category,
      vat_exemption_reason: input.vat_exemption_reason ?? null,
      product_id: input.product_id ?? null,
    } satisfies Omit<PreparedItem, 'total_ht' | 'total_ttc'>;
  });

  const lines: TotalsLine[] = items;
  let totals: DocumentTotals;
  try {
    totals = computeTotals(lines);
  } catch (err) {
    if (err instanceof AmountOverflowError) {
      const f = err.lineIndex === null ? prefix : `${prefix}.${err.lineIndex}.quantity`;
      throw validationError(f, `${f}: the amount is too large`);
    }
    throw err;
  }
  const [issue] = checkDiscounts(lines);
  if (issue) {
    const f = `${prefix}.${issue.index}.${issue.field}`;
    throw validationError(f, `${f}: ${issue.message}`);
  }
  return { items: items.map((item, i) => ({ ...item, ...totals.lines[i]! })), totals };
}

/** Replaces a draft's lines and stores its totals. */
/**
 * Replaces a document's lines with these; returns them as loadItems reads them (same rows, same order). `fresh`: the
 * document was inserted in this transaction and has no lines to delete yet.
 */
export async function writeItems(tx: Tx, orgId: string, documentId: string, lines: PreparedLines, { fresh = false } = {}): Promise<ItemRow[]> {
  if (!fresh) await tx.delete(documentItems).where(and(eq(documentItems.org_id, orgId), eq(documentItems.document_id, documentId)));
  if (!lines.items.length) return [];
  const rows = await tx
    .insert(documentItems)
    .values(lines.items.map((item) => ({ ...item, org_id: orgId, document_id: documentId })))
    .returning();
  // loadItems' order: position, then id (uuids compare in PostgreSQL as their lowercase hex does).
  return rows.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Item rows (or prepared items) back to line inputs: copying lines into a new document. */
export const toItemInputs = (
  items: ReadonlyArray<Pick<PreparedItem, 'kind' | 'description' | 'details' | 'quantity' | 'unit' | 'unit_price' | 'vat_rate' | 'vat_category' | 'vat_exemption_reason' | 'product_id' | 'position'>>,
): ItemInput[] =>
  items.map((it) => ({
    kind: it.kind,
    description: it.description,
    details: it.details,
    quantity: it.kind === 'discount' ? undefined : it.quantity,
    unit: it.unit,
    unit_price: it.unit_price,
    vat_rate: it.vat_rate,
    vat_category: it.vat_category,
    vat_exemption_reason: it.vat_exemption_reason,
    product_id: it.product_id,
    position: it.position,
  }));

/** The totals columns of a document from its prepared lines. */
export const totalsColumns = (totals: DocumentTotals) => ({ total_ht: totals.total_ht, total_tva: totals.total_tva, total_ttc: totals.total_ttc });
