import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureTemplates } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { afterCursor, type PageQuery, toPage } from '@/lib/platform/http';
import type { SignatureTemplate, SignatureTemplateCreate } from './schemas';

type TemplateRow = typeof signatureTemplates.$inferSelect;

export function publicTemplate(row: TemplateRow): SignatureTemplate {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    message: row.message,
    labels: row.labels,
    cc_recipients: row.cc_recipients,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function createTemplate(db: Db, orgId: string, input: SignatureTemplateCreate): Promise<SignatureTemplate> {
  const [row] = await db
    .insert(signatureTemplates)
    .values({
      org_id: orgId,
      name: input.name,
      subject: input.subject ?? null,
      message: input.message ?? null,
      labels: input.labels,
      cc_recipients: input.cc_recipients,
    })
    .returning();
  return publicTemplate(row!);
}

/** Newest first, cursor-paginated. */
export async function listTemplates(db: Db, orgId: string, query: PageQuery) {
  const rows = await db
    .select()
    .from(signatureTemplates)
    .where(and(eq(signatureTemplates.org_id, orgId), afterCursor(signatureTemplates.id, query.cursor)))
    .orderBy(desc(signatureTemplates.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, publicTemplate);
}

export async function getTemplate(db: Db, orgId: string, id: string): Promise<SignatureTemplate> {
  const [row] = await db
    .select()
    .from(signatureTemplates)
    .where(and(eq(signatureTemplates.org_id, orgId), eq(signatureTemplates.id, id)));
  if (!row) throw notFound('Signature template');
  return publicTemplate(row);
}

/** Envelopes and forms made from it keep their values; their `template_id` becomes null. */
export async function deleteTemplate(db: Db, orgId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(signatureTemplates)
    .where(and(eq(signatureTemplates.org_id, orgId), eq(signatureTemplates.id, id)))
    .returning({ id: signatureTemplates.id });
  if (deleted.length === 0) throw notFound('Signature template');
}
