import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureDocuments, signatureFormSubmissions, signatureForms, signatureTemplates } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import { notFound, validationError } from '@/lib/platform/errors';
import { afterCursor, toPage } from '@/lib/platform/http';
import type { SignatureForm, SignatureFormCreate, SignatureFormListQuery } from './form-schemas';

type FormRow = typeof signatureForms.$inferSelect;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 128 random bits written in base62 (22 characters): the public, unguessable part of a form's URL. */
export function newFormSlug(): string {
  let n = BigInt(`0x${randomBytes(16).toString('hex')}`);
  let out = '';
  for (let i = 0; i < 22; i++) {
    out = BASE62[Number(n % 62n)]! + out;
    n /= 62n;
  }
  return out;
}

export const formUrl = (slug: string) => `${appBaseUrl()}/sign/forms/${slug}`;

export function publicForm(row: FormRow): SignatureForm {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    source_document_id: row.source_document_id,
    template_id: row.template_id,
    verification_method: row.verification_method,
    active: row.active,
    url: formUrl(row.slug),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** `POST /v1/signature/forms`: the document must be an uploaded PDF of the org, the template one of its templates. */
export async function createForm(db: Db, orgId: string, input: SignatureFormCreate): Promise<SignatureForm> {
  const [doc] = await db
    .select({ id: signatureDocuments.id })
    .from(signatureDocuments)
    .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, input.source_document_id)));
  if (!doc) throw validationError('source_document_id', 'source_document_id: no such signature document');
  if (input.template_id) {
    const [tpl] = await db
      .select({ id: signatureTemplates.id })
      .from(signatureTemplates)
      .where(and(eq(signatureTemplates.org_id, orgId), eq(signatureTemplates.id, input.template_id)));
    if (!tpl) throw validationError('template_id', 'template_id: no such signature template');
  }
  const [row] = await db
    .insert(signatureForms)
    .values({
      org_id: orgId,
      slug: newFormSlug(),
      title: input.title,
      source_document_id: input.source_document_id,
      template_id: input.template_id ?? null,
      verification_method: input.verification_method,
    })
    .returning();
  return publicForm(row!);
}

/** Newest first, cursor-paginated; `active` filters. */
export async function listForms(db: Db, orgId: string, query: SignatureFormListQuery) {
  const rows = await db
    .select()
    .from(signatureForms)
    .where(
      and(
        eq(signatureForms.org_id, orgId),
        afterCursor(signatureForms.id, query.cursor),
        query.active ? eq(signatureForms.active, query.active === 'true') : undefined,
      ),
    )
    .orderBy(desc(signatureForms.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, publicForm);
}

export async function getForm(db: Db, orgId: string, id: string): Promise<SignatureForm> {
  const [row] = await db
    .select()
    .from(signatureForms)
    .where(and(eq(signatureForms.org_id, orgId), eq(signatureForms.id, id)));
  if (!row) throw notFound('Signature form');
  return publicForm(row);
}

/** `POST …/{id}/active`: whatever the current value (spec: "always"). */
export async function setFormActive(db: Db, orgId: string, id: string, active: boolean): Promise<SignatureForm> {
  const [row] = await db
    .update(signatureForms)
    .set({ active })
    .where(and(eq(signatureForms.org_id, orgId), eq(signatureForms.id, id)))
    .returning();
  if (!row) throw notFound('Signature form');
  return publicForm(row);
}

/** The envelopes made from it stay (their `form_id` becomes null); its pending submissions go with it. */
export async function deleteForm(db: Db, orgId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(signatureForms)
    .where(and(eq(signatureForms.org_id, orgId), eq(signatureForms.id, id)))
    .returning({ id: signatureForms.id });
  if (deleted.length === 0) throw notFound('Signature form');
}

/** Per form: its submissions, and those verified that made an envelope (the back-office list). */
export async function formSubmissionCounts(db: Db, orgId: string, formIds: string[]): Promise<Map<string, { submitted: number; signed_up: number }>> {
  const out = new Map<string, { submitted: number; signed_up: number }>();
  if (formIds.length === 0) return out;
  const s = signatureFormSubmissions;
  const [all, made] = await Promise.all([
    db
      .select({ form_id: s.form_id, n: count() })
      .from(s)
      .where(and(eq(s.org_id, orgId), inArray(s.form_id, formIds)))
      .groupBy(s.form_id),
    db
      .select({ form_id: s.form_id, n: count() })
      .from(s)
      .where(and(eq(s.org_id, orgId), inArray(s.form_id, formIds), isNotNull(s.envelope_id)))
      .groupBy(s.form_id),
  ]);
  for (const id of formIds) out.set(id, { submitted: 0, signed_up: 0 });
  for (const r of all) out.get(r.form_id)!.submitted = r.n;
  for (const r of made) out.get(r.form_id)!.signed_up = r.n;
  return out;
}
