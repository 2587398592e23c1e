import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { signatureRequestedDocuments, signatureSigners } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { text, Timestamp, wellFormed } from '@/lib/platform/contract';
import { envelopeForEvidence, requireDraft } from './fields';

type RequestedRow = typeof signatureRequestedDocuments.$inferSelect;

export const RequestedDocumentInput = z.strictObject({
  signer_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'The signer asked to upload it.' }),
  label: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'must not be blank')
    .max(200, 'at most 200 characters')
    .refine(wellFormed, 'contains an invalid character')
    .meta({ description: 'What is asked (ID card, proof of address…), at most 200 characters.' }),
  description: text(2000).meta({ description: 'More words for the signer, at most 2000 characters.' }),
  required: z.boolean({ error: 'must be a boolean' }).default(true).meta({ description: 'Whether the signer must upload it before signing; true when omitted.' }),
});

export const RequestedDocumentsPut = z
  .strictObject({
    requested_documents: z
      .array(RequestedDocumentInput, { error: 'must be an array of requested documents' })
      .max(50, 'at most 50 requested documents')
      .meta({ description: 'Every document asked of the signers, at most 50: replaces the set.' }),
  })
  .meta({ id: 'SignatureRequestedDocumentsPut' });
export type RequestedDocumentsPut = z.output<typeof RequestedDocumentsPut>;

export const RequestedDocument = z
  .object({
    id: z.uuid().meta({ description: 'The request’s id.' }),
    signer_id: z.uuid().meta({ description: 'The signer asked to upload it.' }),
    label: z.string().meta({ description: 'What is asked.' }),
    description: z.string().nullable().meta({ description: 'More words for the signer; null when none.' }),
    required: z.boolean().meta({ description: 'Whether the signer must upload it before signing.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'SignatureRequestedDocument' });
export const RequestedDocumentList = z
  .object({ data: z.array(RequestedDocument).meta({ description: 'The documents asked of the signers.' }) })
  .meta({ id: 'SignatureRequestedDocumentList' });

export function publicRequestedDocument(row: RequestedRow): z.infer<typeof RequestedDocument> {
  return { id: row.id, signer_id: row.signer_id, label: row.label, description: row.description, required: row.required, created_at: row.created_at.toISOString() };
}

export const requestedDocumentsOf = (conn: Db | Tx, envelopeId: string) =>
  conn.select().from(signatureRequestedDocuments).where(eq(signatureRequestedDocuments.envelope_id, envelopeId)).orderBy(asc(signatureRequestedDocuments.position));

/** `GET …/requested-documents`. */
export async function listRequestedDocuments(db: Db, orgId: string, envelopeId: string) {
  await envelopeForEvidence(db, orgId, envelopeId);
  return { data: (await requestedDocumentsOf(db, envelopeId)).map(publicRequestedDocument) };
}

/** `PUT …/requested-documents`: replaced while draft; each for a signer of the envelope (422 `requested_documents.<i>.signer_id`). */
export async function replaceRequestedDocuments(db: Db, orgId: string, envelopeId: string, input: RequestedDocumentsPut) {
  return db.transaction(async (tx) => {
    requireDraft(await envelopeForEvidence(tx, orgId, envelopeId, true));
    const signers = new Set(
      (await tx.select({ id: signatureSigners.id }).from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId))).map((s) => s.id),
    );
    input.requested_documents.forEach((d, i) => {
      if (!signers.has(d.signer_id)) throw validationError(`requested_documents.${i}.signer_id`, `requested_documents.${i}.signer_id: not a signer of this envelope`);
    });
    // A draft has no uploads yet: replacing the list loses nothing a signer gave.
    await tx.delete(signatureRequestedDocuments).where(eq(signatureRequestedDocuments.envelope_id, envelopeId));
    if (input.requested_documents.length === 0) return { data: [] };
    const rows = await tx
      .insert(signatureRequestedDocuments)
      .values(
        input.requested_documents.map((d, position) => ({
          org_id: orgId,
          envelope_id: envelopeId,
          signer_id: d.signer_id,
          position,
          label: d.label,
          description: d.description ?? null,
          required: d.required,
        })),
      )
      .returning();
    rows.sort((a, b) => a.position - b.position);
    return { data: rows.map(publicRequestedDocument) };
  });
}
