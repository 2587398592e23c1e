import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emails } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';

export type EmailRecord = typeof emails.$inferSelect;
/** A line of a list: everything but the rendered bodies and the template data. */
export type EmailSummary = Omit<EmailRecord, 'html' | 'text' | 'template_data'>;

const summaryColumns = {
  id: emails.id,
  org_id: emails.org_id,
  from: emails.from,
  to: emails.to,
  cc: emails.cc,
  reply_to: emails.reply_to,
  subject: emails.subject,
  template: emails.template,
  language: emails.language,
  document_id: emails.document_id,
  attachments: emails.attachments,
  transport: emails.transport,
  provider_id: emails.provider_id,
  status: emails.status,
  attempts: emails.attempts,
  last_error: emails.last_error,
  job_id: emails.job_id,
  sent_at: emails.sent_at,
  delivered_at: emails.delivered_at,
  created_at: emails.created_at,
  updated_at: emails.updated_at,
};

/** The org's outbox e-mails, newest first, `limit` per page; `before` is the last id of the previous page. */
export async function listOutboxEmails(db: Db, orgId: string, options: { before?: string | null; limit?: number } = {}) {
  const limit = options.limit ?? 50;
  const rows = await db
    .select(summaryColumns)
    .from(emails)
    .where(and(eq(emails.org_id, orgId), eq(emails.transport, 'outbox'), options.before ? lt(emails.id, options.before) : undefined))
    .orderBy(desc(emails.id))
    .limit(limit + 1);
  const items: EmailSummary[] = rows.slice(0, limit);
  return { items, nextBefore: rows.length > limit ? items.at(-1)!.id : null };
}

/** One e-mail of the org, rendered bodies included; 404 for another org's. */
export async function getEmail(db: Db, orgId: string, emailId: string): Promise<EmailRecord> {
  const [row] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.org_id, orgId), eq(emails.id, emailId)));
  if (!row) throw notFound('E-mail');
  return row;
}

/** The mail log of one document, newest first (the document page shows it). */
export async function listDocumentEmails(db: Db, orgId: string, documentId: string, limit = 100): Promise<EmailSummary[]> {
  return db
    .select(summaryColumns)
    .from(emails)
    .where(and(eq(emails.org_id, orgId), eq(emails.document_id, documentId)))
    .orderBy(desc(emails.id))
    .limit(limit);
}
