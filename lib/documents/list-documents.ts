import { and, desc, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documents } from '@/db/schema';
import { afterCursor, type Page, toPage } from '@/lib/http/pagination';
import { todayParis } from '@/lib/dates';
import { contactNameOf, documentView, loadDocument, toPublicDocument } from './documents';
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

/** Unpaid issued invoices and deposits past their due date (Europe/Paris calendar). */
export const overdueCondition = (today: string): SQL =>
  and(
    inArray(documents.type, ['facture', 'acompte']),
    inArray(documents.status, ['finalized', 'sent']),
    lt(documents.due_date, today),
  )!;

/** Newest first, items omitted. Filters combine with AND. */
export async function listDocuments(db: Db, orgId: string, query: DocumentListQuery): Promise<Page<BillingDocument>> {
  const pattern = query.q ? `%${likeEscape(query.q.toLowerCase())}%` : null;
  const conditions: Array<SQL | undefined> = [
    eq(documents.org_id, orgId),
    query.type ? eq(documents.type, query.type) : undefined,
    query.status ? eq(documents.status, query.status) : undefined,
    query.contact_id ? eq(documents.contact_id, query.contact_id) : undefined,
    query.issue_date_from ? gte(documents.issue_date, query.issue_date_from) : undefined,
    query.issue_date_to ? lte(documents.issue_date, query.issue_date_to) : undefined,
    query.overdue ? overdueCondition(todayParis()) : undefined,
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
    afterCursor(documents.id, query.cursor),
  ];
  // The page first, then the live names of its drafts' contacts: joining contacts before the LIMIT would look up
  // the contact of every matching row (thousands for a common q), not of the 50 shown.
  const rows = await db
    .select()
    .from(documents)
    .where(and(...conditions))
    .orderBy(desc(documents.id))
    .limit(query.limit + 1);
  const draftContacts = [...new Set(rows.filter((r) => !r.finalized_at).map((r) => r.contact_id))];
  const live = new Map(
    draftContacts.length
      ? (
          await db
            .select({ id: contacts.id, company: contacts.company, first_name: contacts.first_name, last_name: contacts.last_name, deleted_at: contacts.deleted_at, erased_at: contacts.erased_at })
            .from(contacts)
            .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, draftContacts)))
        ).map((c) => [c.id, c])
      : [],
  );
  return toPage(rows, query.limit, (doc) => toPublicDocument(doc, undefined, contactNameOf(doc, live.get(doc.contact_id) ?? null)));
}
