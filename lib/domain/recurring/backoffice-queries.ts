import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documents, recurringGenerations } from '@/db/schema';
import { displayName } from '@/lib/domain/contacts';
import { toPublicGeneration } from './generations';
import type { RecurringGeneration } from './schemas';
import { loadTemplate } from './templates';

/*
 * Read-only queries of the back-office's recurring pages (app/(backoffice)/recurring): what the API's resources leave
 * to other calls (the contact's name, the generated invoice's number), read in one query per page.
 */

/** A template's contact as its pages name it: null once erased (GDPR) or gone; `deleted` while in the bin. */
export interface TemplateContact {
  name: string | null;
  deleted: boolean;
}

/** The org's contacts of these ids, by id (a list page's client column). */
export async function templateContacts(db: Db, orgId: string, ids: readonly string[]): Promise<Map<string, TemplateContact>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: contacts.id,
      company: contacts.company,
      first_name: contacts.first_name,
      last_name: contacts.last_name,
      erased_at: contacts.erased_at,
      deleted_at: contacts.deleted_at,
    })
    .from(contacts)
    .where(and(eq(contacts.org_id, orgId), inArray(contacts.id, [...new Set(ids)])));
  return new Map(rows.map((c) => [c.id, { name: c.erased_at ? null : displayName(c), deleted: c.deleted_at !== null }]));
}

/** One period of a template's history, with the invoice it made (number, status, total) when it made one. */
export interface HistoryEntry extends RecurringGeneration {
  invoice: { number: string | null; status: string; issue_date: string; total_ttc: number } | null;
}

/** A template's generations, newest period first (at most `limit`), each with its invoice: the template page's history. */
export async function templateHistory(db: Db, orgId: string, templateId: string, limit = 100): Promise<HistoryEntry[]> {
  await loadTemplate(db, orgId, templateId);
  const rows = await db
    .select({
      generation: recurringGenerations,
      number: documents.number,
      status: documents.status,
      issue_date: documents.issue_date,
      total_ttc: documents.total_ttc,
    })
    .from(recurringGenerations)
    .leftJoin(documents, and(eq(documents.id, recurringGenerations.document_id), eq(documents.org_id, orgId)))
    .where(and(eq(recurringGenerations.org_id, orgId), eq(recurringGenerations.template_id, templateId)))
    .orderBy(desc(recurringGenerations.period_start), desc(recurringGenerations.created_at))
    .limit(limit);
  return rows.map((r) => ({
    ...toPublicGeneration(r.generation),
    invoice: r.status === null ? null : { number: r.number, status: r.status, issue_date: r.issue_date!, total_ttc: r.total_ttc! },
  }));
}
