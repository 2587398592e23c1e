import { and, asc, eq, max } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { signatureDocuments, signatureEnvelopeDocuments } from '@/db/schema';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { Timestamp } from '@/lib/platform/contract';
import { envelopeForEvidence, requireDraft } from './fields';

/** Documents sent with the envelope besides the one signed (annexes), attached while draft. */
export const AttachDocumentBody = z
  .strictObject({ document_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'A document uploaded with POST /v1/signature/documents.' }) })
  .meta({ id: 'SignatureAttachDocument' });
export type AttachDocumentBody = z.output<typeof AttachDocumentBody>;

export const AttachedDocument = z
  .object({
    id: z.uuid().meta({ description: 'The signature document (POST /v1/signature/documents).' }),
    name: z.string().meta({ description: 'The uploaded file name.' }),
    byte_size: z.number().int().meta({ description: 'Size of the PDF in bytes.' }),
    page_count: z.number().int().meta({ description: 'Pages of the PDF.' }),
    sha256: z.string().meta({ description: 'Lowercase hex SHA-256 of the PDF as stored.' }),
    position: z.number().int().meta({ description: 'Order among the envelope’s documents, from 0.' }),
    attached_at: Timestamp,
  })
  .meta({ id: 'SignatureAttachedDocument' });
export const AttachedDocumentList = z
  .object({ data: z.array(AttachedDocument).meta({ description: 'The documents attached to the envelope, in order.' }) })
  .meta({ id: 'SignatureAttachedDocumentList' });

const columns = {
  id: signatureDocuments.id,
  name: signatureDocuments.name,
  byte_size: signatureDocuments.byte_size,
  page_count: signatureDocuments.page_count,
  sha256: signatureDocuments.sha256,
  position: signatureEnvelopeDocuments.position,
  attached_at: signatureEnvelopeDocuments.created_at,
};
const publicAttached = (r: { attached_at: Date } & Omit<z.infer<typeof AttachedDocument>, 'attached_at'>) => ({ ...r, attached_at: r.attached_at.toISOString() });

/** `GET …/documents`, in the order attached. */
export async function listAttachedDocuments(db: Db, orgId: string, envelopeId: string) {
  await envelopeForEvidence(db, orgId, envelopeId);
  const rows = await db
    .select(columns)
    .from(signatureEnvelopeDocuments)
    .innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureEnvelopeDocuments.document_id))
    .where(and(eq(signatureEnvelopeDocuments.org_id, orgId), eq(signatureEnvelopeDocuments.envelope_id, envelopeId)))
    .orderBy(asc(signatureEnvelopeDocuments.position));
  return { data: rows.map(publicAttached) };
}

/** `POST …/documents` `{document_id}`: an uploaded PDF of the org attached, while draft; once only (409 `signature_conflict`). */
export async function attachDocument(db: Db, orgId: string, envelopeId: string, input: AttachDocumentBody) {
  return db.transaction(async (tx) => {
    const envelope = await envelopeForEvidence(tx, orgId, envelopeId, true);
    requireDraft(envelope);
    const [doc] = await tx
      .select()
      .from(signatureDocuments)
      .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, input.document_id)));
    if (!doc) throw validationError('document_id', 'document_id: no such signature document');
    if (doc.id === envelope.document_id) throw validationError('document_id', 'document_id: this is the document the envelope is signed on');
    const [taken] = await tx
      .select({ id: signatureEnvelopeDocuments.id })
      .from(signatureEnvelopeDocuments)
      .where(and(eq(signatureEnvelopeDocuments.envelope_id, envelopeId), eq(signatureEnvelopeDocuments.document_id, doc.id)));
    if (taken) throw conflict('signature_conflict', 'This document is already attached to the envelope.', 'document_id');
    const [last] = await tx.select({ n: max(signatureEnvelopeDocuments.position) }).from(signatureEnvelopeDocuments).where(eq(signatureEnvelopeDocuments.envelope_id, envelopeId));
    const [row] = await tx
      .insert(signatureEnvelopeDocuments)
      .values({ org_id: orgId, envelope_id: envelopeId, document_id: doc.id, position: (last?.n ?? -1) + 1 })
      .returning();
    return publicAttached({ id: doc.id, name: doc.name, byte_size: doc.byte_size, page_count: doc.page_count, sha256: doc.sha256, position: row!.position, attached_at: row!.created_at });
  });
}

/** `DELETE …/documents/{document_id}`: detached while draft; the uploaded document itself stays. */
export async function detachDocument(db: Db, orgId: string, envelopeId: string, documentId: string) {
  await db.transaction(async (tx) => {
    requireDraft(await envelopeForEvidence(tx, orgId, envelopeId, true));
    const gone = await tx
      .delete(signatureEnvelopeDocuments)
      .where(and(eq(signatureEnvelopeDocuments.org_id, orgId), eq(signatureEnvelopeDocuments.envelope_id, envelopeId), eq(signatureEnvelopeDocuments.document_id, documentId)))
      .returning({ id: signatureEnvelopeDocuments.id });
    if (gone.length === 0) throw notFound('Attached document');
  });
}
