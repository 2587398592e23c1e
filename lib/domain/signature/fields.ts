import { and, asc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { signatureDocuments, signatureEnvelopes, signatureFields, signatureSigners } from '@/db/schema';
import { FIELD_TYPES } from '@/db/schema/signature';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { text, Timestamp } from '@/lib/platform/contract';
import { readStoredPdf } from '@/lib/domain/pdf';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type FieldRow = typeof signatureFields.$inferSelect;

/** The org's envelope (another org's id is a 404), locked when it is about to change. */
export async function envelopeForEvidence(conn: Db | Tx, orgId: string, id: string, forUpdate = false): Promise<EnvelopeRow> {
  const q = conn
    .select()
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.org_id, orgId), eq(signatureEnvelopes.id, id)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Signature envelope');
  return row;
}

/** Fields, requested and attached documents change while the envelope is a draft only. */
export function requireDraft(row: EnvelopeRow) {
  if (row.status !== 'draft') throw conflict('envelope_not_draft', `The envelope is ${row.status}: only a draft can be changed.`);
}

/**
 * Pages of the PDF the signers will sign: the stored document's, or for a quote or invoice not yet sent (its render
 * is frozen at send), its stored render's.
 */
export async function envelopePageCount(conn: Db | Tx, row: EnvelopeRow): Promise<number> {
  if (row.document_id) {
    const [doc] = await conn.select({ page_count: signatureDocuments.page_count }).from(signatureDocuments).where(eq(signatureDocuments.id, row.document_id));
    if (doc) return doc.page_count;
  }
  if (row.source_kind === 'document') throw new Error(`envelope ${row.id} has no document`);
  const pdf = await readStoredPdf(conn as Db, row.org_id, row.source_document_id);
  if (!pdf) throw conflict('pdf_not_ready', 'The PDF of the quote or invoice is not rendered yet: place the fields once it is.');
  return (await PDFDocument.load(pdf.content, { updateMetadata: false })).getPageCount();
}

/** A fraction of the page's width or height. */
const Fraction = () => z.number({ error: 'must be a number between 0 and 1' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const FieldInput = z
  .strictObject({
    id: z.uuid({ error: 'must be a uuid' }).optional().meta({ description: 'An existing field of the envelope: kept with its origin (a text tag stays one).' }),
    signer_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'The signer who fills it.' }),
    type: z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }).meta({ description: 'signature, initials, date, text, checkbox, name or email.' }),
    page: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').meta({ description: 'Page of the PDF, from 1.' }),
    x: Fraction().meta({ description: 'Left edge, as a fraction of the page width from its left (0 to 1).' }),
    y: Fraction().meta({ description: 'Top edge, as a fraction of the page height from its top (0 to 1).' }),
    width: Fraction().refine((v) => v > 0, 'must be more than 0').meta({ description: 'Width as a fraction of the page width (above 0; x + width at most 1).' }),
    height: Fraction().refine((v) => v > 0, 'must be more than 0').meta({ description: 'Height as a fraction of the page height (above 0; y + height at most 1).' }),
    required: z.boolean({ error: 'must be a boolean' }).default(true).meta({ description: 'Whether the signer must fill it before signing; true when omitted.' }),
    label: text(200).meta({ description: 'Shown to the signer beside the field, at most 200 characters.' }),
  })
  .superRefine((f, ctx) => {
    // The box must stay on the page (the table's CHECK says the same).
    if (f.x + f.width > 1 + 1e-9) ctx.addIssue({ code: 'custom', path: ['width'], message: 'x + width must be at most 1: the box must stay within the page' });
    if (f.y + f.height > 1 + 1e-9) ctx.addIssue({ code: 'custom', path: ['height'], message: 'y + height must be at most 1: the box must stay within the page' });
  });

export const FieldsPut = z
  .strictObject({
    fields: z
      .array(FieldInput, { error: 'must be an array of fields' })
      .max(500, 'at most 500 fields')
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((f, i) => {
          if (f.id && seen.has(f.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'appears twice' });
          if (f.id) seen.add(f.id);
        });
      })
      .meta({ description: 'Every field of the envelope, at most 500: replaces the set (a field left out is removed).' }),
  })
  .meta({ id: 'SignatureFieldsPut' });
export type FieldsPut = z.output<typeof FieldsPut>;

export const SignatureField = z
  .object({
    id: z.uuid().meta({ description: 'The field’s id.' }),
    signer_id: z.uuid().meta({ description: 'The signer who fills it.' }),
    type: z.enum(FIELD_TYPES).meta({ description: 'signature, initials, date, text, checkbox, name or email.' }),
    page: z.number().int().meta({ description: '1-based.' }),
    x: z.number().meta({ description: 'Left edge, as a fraction of the page width from its left (0 to 1).' }),
    y: z.number().meta({ description: 'Top edge, as a fraction of the page height from its top (0 to 1).' }),
    width: z.number().meta({ description: 'Width as a fraction of the page width (above 0; x + width at most 1).' }),
    height: z.number().meta({ description: 'Height as a fraction of the page height (above 0; y + height at most 1).' }),
    required: z.boolean().meta({ description: 'Whether the signer must fill it.' }),
    label: z.string().nullable().meta({ description: 'Shown to the signer beside it; null when none.' }),
    origin: z.enum(['api', 'tag']).meta({ description: '`tag`: found from a text tag in the PDF (hidden under a white box in the signed PDF).' }),
    value: z.string().nullable().meta({ description: 'What the signer entered (text, date, checked); null until filled, and for a signature.' }),
    filled_at: Timestamp.nullable().meta({ description: 'When it was filled; null before.' }),
  })
  .meta({ id: 'SignatureField', description: 'A box on a page of the PDF that a signer fills; positions are fractions of the page.' });
export const SignatureFieldList = z
  .object({ data: z.array(SignatureField).meta({ description: 'The envelope’s fields.' }) })
  .meta({ id: 'SignatureFieldList' });

export function publicField(row: FieldRow): z.infer<typeof SignatureField> {
  return {
    id: row.id,
    signer_id: row.signer_id,
    type: row.type,
    page: row.page,
    x: row.x,
    y: row.y,
    width: row.width,
    height: row.height,
    required: row.required,
    label: row.label,
    origin: row.origin,
    value: row.value,
    filled_at: row.filled_at?.toISOString() ?? null,
  };
}

export const fieldsOf = (conn: Db | Tx, envelopeId: string) =>
  conn.select().from(signatureFields).where(eq(signatureFields.envelope_id, envelopeId)).orderBy(asc(signatureFields.position));

/** `GET …/fields`. */
export async function listFields(db: Db, orgId: string, envelopeId: string) {
  await envelopeForEvidence(db, orgId, envelopeId);
  return { data: (await fieldsOf(db, envelopeId)).map(publicField) };
}

/**
 * `PUT …/fields`: the envelope's fields replaced, while draft (409 `envelope_not_draft`). Every signer_id must be a
 * signer of the envelope and every page within its PDF (422 naming `fields.<i>.signer_id` / `.page`).
 */
export async function replaceFields(db: Db, orgId: string, envelopeId: string, input: FieldsPut) {
  return db.transaction(async (tx) => {
    const envelope = await envelopeForEvidence(tx, orgId, envelopeId, true);
    requireDraft(envelope);
    const signers = new Set(
      (await tx.select({ id: signatureSigners.id }).from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId))).map((s) => s.id),
    );
    const pages = input.fields.length ? await envelopePageCount(tx, envelope) : 0;
    input.fields.forEach((f, i) => {
      if (!signers.has(f.signer_id)) throw validationError(`fields.${i}.signer_id`, `fields.${i}.signer_id: not a signer of this envelope`);
      if (f.page > pages) throw validationError(`fields.${i}.page`, `fields.${i}.page: the document has ${pages} page(s)`);
    });
    const existing = new Map((await fieldsOf(tx, envelopeId)).map((f) => [f.id, f]));
    await tx.delete(signatureFields).where(eq(signatureFields.envelope_id, envelopeId));
    if (input.fields.length === 0) return { data: [] };
    const rows = await tx
      .insert(signatureFields)
      .values(
        input.fields.map((f, position) => {
          const kept = f.id ? existing.get(f.id) : undefined;
          return {
            ...(kept ? { id: kept.id } : {}),
            org_id: orgId,
            envelope_id: envelopeId,
            signer_id: f.signer_id,
            position,
            type: f.type,
            page: f.page,
            x: f.x,
            y: f.y,
            width: f.width,
            height: f.height,
            required: f.required,
            label: f.label ?? null,
            origin: kept?.origin ?? ('api' as const),
          };
        }),
      )
      .returning();
    rows.sort((a, b) => a.position - b.position);
    return { data: rows.map(publicField) };
  });
}
