import { and, desc, eq, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documents, payments } from '@/db/schema';
import { afterCursor, type ListSort, type Page, type SortKey, sortedKeyset, toPage, toSortedPage } from '@/lib/platform/http';
import { todayParis } from '@/lib/platform/dates';
import { OPEN_QUOTE_STATUSES } from './allowed-actions';
import { outstandingSql, overdueSql } from './balance';
import { contactNameOf, documentView, type FullDocumentRow, loadDocument, selectFullDocuments, toPublicDocument } from './documents';
import type { BillingDocument, DocumentListQuery } from './schemas';

export async function getDocument(db: Db, orgId: string, id: string): Promise<BillingDocument> {
  return documentView(db, orgId, await loadDocument(db, orgId, id));
}

/** Escapes LIKE wildcards so `q` is matched literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What `q` searches on a document: its number, title and the client name as invoiced. The expression is the one
 * of the documents_search_trgm index (migration billing_search_trigram), letter for letter.
 */
const SEARCH_TEXT = sql`lower(coalesce(${documents.number}, '') || ' ' || coalesce(${documents.title}, '') || ' ' || coalesce(${documents.client_snapshot}->>'name', ''))`;

/** The documents table itself, as the alias the balance's definitions take (lib/domain/documents/balance.ts). */
const DOC = sql`${documents}`;

/** The list's filters (all but the cursor), combined with AND. */
type DocumentFilters = Omit<DocumentListQuery, 'cursor' | 'limit'>;

function filterConditions(db: Db, orgId: string, query: DocumentFilters): SQL {
  const pattern = query.q ? `%${likeEscape(query.q.toLowerCase())}%` : null;
  return and(
    eq(documents.org_id, orgId),
    query.type ? eq(documents.type, query.type) : undefined,
    query.status ? eq(documents.status, query.status) : undefined,
    query.contact_id ? eq(documents.contact_id, query.contact_id) : undefined,
    query.issue_date_from ? gte(documents.issue_date, query.issue_date_from) : undefined,
    query.issue_date_to ? lte(documents.issue_date, query.issue_date_to) : undefined,
    query.outstanding ? outstandingSql(DOC) : undefined,
    query.overdue ? overdueSql(DOC, todayParis()) : undefined,
    query.awaiting_answer ? and(eq(documents.type, 'devis'), inArray(documents.status, OPEN_QUOTE_STATUSES)) : undefined,
    pattern
      ? or(
          sql`${SEARCH_TEXT} like ${pattern}`,
          // A draft is known by its live contact's name (finalized ones by their snapshot, above). An array of ids,
          // computed once, keeps both arms indexable (trigram index above, documents_org_contact here).
          and(
            isNull(documents.finalized_at),
            sql`${documents.contact_id} = any(array(${db
              .select({ id: contacts.id })
              .from(contacts)
              .where(and(eq(contacts.org_id, orgId), sql`${contacts.search} like ${pattern}`))}))`,
          ),
        )
      : undefined,
  )!;
}

/** Live names of the contacts of the drafts among `rows` (finalized documents name their buyer as invoiced). */
async function draftContactNames(db: Db, orgId: string, rows: Array<typeof documents.$inferSelect>) {
  const draftContacts = [...new Set(rows.filter((r) => !r.finalized_at).map((r) => r.contact_id))];
  if (draftContacts.length === 0) return new Map();
  const live = await db
    .select({ id: contacts.id, company: contacts.company, first_name: contacts.first_name, last_name: contacts.last_name, deleted_at: contacts.deleted_at, erased_at: contacts.erased_at })
    .from(contacts)
    .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, draftContacts)));
  return new Map(live.map((c) => [c.id, c]));
}

/** A credit note's amounts count negative, as the list shows them. */
const signedColumn = (column: typeof documents.total_ttc) => sql`(case when ${documents.type} = 'avoir' then -${column} else ${column} end)`;

/**
 * The columns the back-office list sorts on (the API lists newest first only). The client is the name as invoiced,
 * or for a draft its live contact's; the deadline is a quote's validity date or an invoice's due date.
 */
export const DOCUMENT_SORTS = {
  number: { expr: sql`coalesce(${documents.number}, '')`, type: 'text' },
  client: {
    expr: sql`lower(coalesce(case when ${documents.finalized_at} is not null then ${documents.client_snapshot}->>'name' else (select coalesce(nullif(trim(c.company), ''), trim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, ''))) from ${contacts} c where c.id = ${documents.contact_id} and c.deleted_at is null and c.erased_at is null) end, ''))`,
    type: 'text',
  },
  issue_date: { expr: sql`${documents.issue_date}`, type: 'date' },
  deadline: { expr: sql`coalesce(case when ${documents.type} = 'devis' then ${documents.validity_date} else ${documents.due_date} end, '0001-01-01'::date)`, type: 'date' },
  total_ht: { expr: signedColumn(documents.total_ht), type: 'bigint' },
  total_tva: { expr: signedColumn(documents.total_tva), type: 'bigint' },
  total_ttc: { expr: signedColumn(documents.total_ttc), type: 'bigint' },
} satisfies Record<string, SortKey>;
export type DocumentSort = ListSort<keyof typeof DOCUMENT_SORTS>;

/** Newest first (or by `sort`, for the back-office), items omitted. Filters combine with AND. */
export async function listDocuments(db: Db, orgId: string, query: DocumentListQuery, sort?: DocumentSort): Promise<Page<BillingDocument>> {
  const view = (live: Map<string, Parameters<typeof contactNameOf>[1]>) => (doc: FullDocumentRow) =>
    toPublicDocument(doc, undefined, contactNameOf(doc, live.get(doc.contact_id) ?? null));
  // The page first, then the live names of its drafts' contacts: joining contacts before the LIMIT would look up
  // the contact of every matching row (thousands for a common q), not of the 50 shown.
  if (sort) {
    const keyset = sortedKeyset(DOCUMENT_SORTS[sort.key], documents.id, sort, query.cursor);
    const rows = await selectFullDocuments(db, { sort_value: keyset.value })
      .where(and(filterConditions(db, orgId, query), keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(query.limit + 1);
    return toSortedPage(rows, query.limit, sort, view(await draftContactNames(db, orgId, rows)));
  }
  const rows = await selectFullDocuments(db)
    .where(and(filterConditions(db, orgId, query), afterCursor(documents.id, query.cursor)))
    .orderBy(desc(documents.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, view(await draftContactNames(db, orgId, rows)));
}

/** An amount as it weighs in a sum: a credit note takes back what it credits. */
const signed = (column: SQL | typeof documents.total_ttc) => sql<number>`coalesce(sum(case when ${documents.type} = 'avoir' then -${column} else ${column} end), 0)::bigint`;

/**
 * The totals of every document the filters select (not only the page shown): invoices, deposit invoices and credit
 * notes (negative) summed together, quotes apart (a quote is not revenue). Cents.
 */
export async function summarizeDocuments(db: Db, orgId: string, query: DocumentFilters) {
  const rows = await db
    .select({
      quote: sql<boolean>`${documents.type} = 'devis'`,
      count: sql<number>`count(*)::int`,
      total_ht: signed(documents.total_ht),
      total_tva: signed(documents.total_tva),
      total_ttc: signed(documents.total_ttc),
    })
    .from(documents)
    .where(filterConditions(db, orgId, query))
    .groupBy(sql`1`);
  const zero = { count: 0, total_ht: 0, total_tva: 0, total_ttc: 0 };
  const of = (quote: boolean) => {
    const r = rows.find((x) => x.quote === quote);
    return r ? { count: Number(r.count), total_ht: Number(r.total_ht), total_tva: Number(r.total_tva), total_ttc: Number(r.total_ttc) } : zero;
  };
  return { invoices: of(false), quotes: of(true) };
}

/** What was paid on each of `ids` (cents); a document without payment is absent. */
export async function paidByDocument(db: Db, orgId: string, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payments.document_id, paid: sql<number>`sum(${payments.amount})::bigint` })
    .from(payments)
    .where(and(eq(payments.org_id, orgId), inArray(payments.document_id, ids)))
    .groupBy(payments.document_id);
  return new Map(rows.map((r) => [r.id, Number(r.paid)]));
}

/**
 * Which of `ids` are overdue on `today` (Europe/Paris): the « en retard » flag of the list's rows and of a document's
 * page, by the same definition as the overdue filter, the dashboard and « À relancer » (overdueSql).
 */
export async function overdueAmong(db: Db, orgId: string, ids: string[], today = todayParis()): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), inArray(documents.id, ids), overdueSql(DOC, today)));
  return new Set(rows.map((r) => r.id));
}

/** The contact of each of `ids` (the org's documents only). */
export async function contactsOfDocuments(db: Db, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: documents.id, contact_id: documents.contact_id })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), inArray(documents.id, ids)));
  return new Map(rows.map((r) => [r.id, r.contact_id]));
}

/** The most rows an export gives: beyond, the filters must narrow it (the caller says so). */
export const EXPORT_LIMIT = 20_000;

/**
 * Every document the filters select (only those of `ids` when given: a selection of the list), newest first or in
 * the list's sort, up to EXPORT_LIMIT + 1 (one more tells that the limit was hit).
 */
export async function documentsToExport(db: Db, orgId: string, query: DocumentFilters, ids?: string[], sort?: DocumentSort): Promise<BillingDocument[]> {
  const rows = await selectFullDocuments(db)
    .where(and(filterConditions(db, orgId, query), ids ? inArray(documents.id, ids) : undefined))
    .orderBy(...(sort ? sortedKeyset(DOCUMENT_SORTS[sort.key], documents.id, sort, undefined).orderBy : [desc(documents.id)]))
    .limit(EXPORT_LIMIT + 1);
  const live = await draftContactNames(db, orgId, rows);
  return rows.map((doc) => toPublicDocument(doc, undefined, contactNameOf(doc, live.get(doc.contact_id) ?? null)));
}
