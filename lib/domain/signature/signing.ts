import { and, eq, inArray, isNull } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { signatureFields, signatureRequestedDocuments, signatureSigners, signatureUploads } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { recordEvent } from '@/lib/platform/events';
import { ApiError, conflict, notFound, validationError } from '@/lib/platform/errors';
import { wellFormed } from '@/lib/platform/contract';
import { runSandboxed, sandboxRefusalError, sandboxTask } from '@/lib/platform/sandbox';
import { getStorage, objectKey, sha256Hex } from '@/lib/platform/storage';
import { appendAuditEvent } from './audit';
import { completeEnvelope } from './completion';
import type { DrawingCheck } from './drawing-check';
import { signerEventObject } from './events';
import { signerLocked } from './otp';
import { isSignersTurn, markInProgress, type SignerRow, type SignerSession } from './signer-session';
import { openTurns, type TurnContext } from './turns';

/** A drawn signature: a PNG data URL of at most this many bytes once decoded, */
export const MAX_DRAWN_SIGNATURE_BYTES = 200 * 1024;
/** of at most this many pixels a side (a signature pad at 3× on a wide screen is under 2,500), */
export const MAX_DRAWN_SIGNATURE_SIDE = 4096;
/** and in all (what decoding it costs: 4 bytes a pixel). */
export const MAX_DRAWN_SIGNATURE_PIXELS = 8_000_000;
/** A file a signer uploads for a requested document. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export const FieldValueBody = z.strictObject({ value: z.union([z.string().max(1000, 'at most 1000 characters'), z.boolean(), z.null()], { error: 'must be a string, a boolean or null' }) });
export const SignBody = z.strictObject({
  signature: z.strictObject({
    kind: z.enum(['typed', 'drawn'], { error: 'must be one of typed, drawn' }),
    value: z.string({ error: 'must be a string' }).trim().min(1, 'required').max(400_000, 'at most 400000 characters'),
  }),
});
export const DeclineBody = z.strictObject({ reason: z.string({ error: 'required' }).trim().min(1, 'required').max(2000, 'at most 2000 characters') });
export const VerifyCodeBody = z.strictObject({ code: z.string({ error: 'required' }).trim().min(1, 'required').max(20, 'at most 20 characters') });
export const UploadBody = z.object({
  requested_document_id: z.uuid({ error: 'must be a uuid' }),
  file: z.instanceof(File, { error: 'required (a file)' }),
});

const Text = (max: number) => z.string().trim().min(1, 'required').max(max, `at most ${max} characters`).refine(wellFormed, { error: 'contains an invalid character' });

/** What a field of each type accepts; `null` clears it. Signature fields are filled by signing, not here. */
function fieldValue(type: string, value: string | boolean | null): string | null {
  if (value === null) return null;
  const parse = (schema: z.ZodType<string | boolean>) => {
    const r = schema.safeParse(value);
    if (!r.success) throw validationError('value', `value: ${r.error.issues[0]?.message ?? 'invalid'}`);
    return r.data;
  };
  switch (type) {
    case 'checkbox':
      // A form posts strings: "true" / "false" are the booleans they spell.
      return String(parse(z.union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })));
    case 'date':
      return String(parse(z.iso.date({ error: 'must be a date YYYY-MM-DD' })));
    case 'email':
      return String(parse(z.string().trim().pipe(z.email({ error: 'must be an e-mail address' }))));
    case 'initials':
      return String(parse(Text(10)));
    case 'name':
      return String(parse(Text(200)));
    case 'text':
      return String(parse(Text(1000)));
    default:
      throw validationError('value', 'value: a signature field is filled by signing');
  }
}

/** `PUT …/fields/<field_id>`: one of the signer's own fields (another's, or none, is a 404), `signer.field_filled`. */
export async function fillField(tx: Db | Tx, session: SignerSession, fieldId: string, value: string | boolean | null, ctx: TurnContext): Promise<SignerSession> {
  const { signer } = session;
  const [field] = await tx
    .select()
    .from(signatureFields)
    .where(and(eq(signatureFields.id, fieldId), eq(signatureFields.signer_id, signer.id)));
  if (!field) throw notFound('Field');
  const stored = fieldValue(field.type, value);
  const now = new Date();
  await tx
    .update(signatureFields)
    .set({ value: stored, filled_at: stored === null ? null : now })
    .where(eq(signatureFields.id, field.id));
  await appendAuditEvent(tx, session.envelope.id, {
    event_type: 'signer.field_filled',
    signer_id: signer.id,
    occurred_at: now,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, field_id: field.id, type: field.type, value: stored },
  });
  return { envelope: await markInProgress(tx, session.envelope), signer };
}

const MAGIC: Array<[prefix: number[], contentType: string, ext: string]> = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], 'application/pdf', 'pdf'],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png', 'png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg', 'jpg'],
];
const kindOf = (bytes: Uint8Array) => MAGIC.find(([prefix]) => prefix.every((b, i) => bytes[i] === b));

function displayName(name: string, ext: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = (name.split(/[\\/]/).at(-1) ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || `document.${ext}`).slice(0, 255);
}

/**
 * `POST …/uploads`: a PDF, PNG or JPEG (checked by its first bytes) of at most 10 MB for one of the signer's requested
 * documents, stored through lib/platform/storage with its SHA-256; `signer.document_uploaded`.
 */
export async function addUpload(tx: Db | Tx, session: SignerSession, requestedDocumentId: string, file: File, ctx: TurnContext): Promise<SignerSession> {
  const { envelope, signer } = session;
  const [requested] = await tx
    .select()
    .from(signatureRequestedDocuments)
    .where(and(eq(signatureRequestedDocuments.id, requestedDocumentId), eq(signatureRequestedDocuments.signer_id, signer.id)));
  if (!requested) throw validationError('requested_document_id', 'requested_document_id: no such requested document for this signer');
  if (file.size > MAX_UPLOAD_BYTES) throw new ApiError(413, 'payload_too_large', 'file: larger than 10 MB.', 'file');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = kindOf(bytes);
  if (!kind) throw validationError('file', 'file: must be a PDF, PNG or JPEG');
  const [, contentType, ext] = kind;
  const id = uuidv7();
  const key = objectKey('signature', envelope.org_id, 'uploads', envelope.id, `${id}.${ext}`);
  const stored = await getStorage().put(key, bytes, { contentType });
  const sha256 = sha256Hex(bytes);
  if (stored.sha256 !== sha256) throw new Error(`storage kept ${stored.sha256} for ${key}, expected ${sha256}`);
  const name = displayName(file.name, ext);
  await tx.insert(signatureUploads).values({
    id,
    org_id: envelope.org_id,
    envelope_id: envelope.id,
    requested_document_id: requested.id,
    signer_id: signer.id,
    name,
    content_type: contentType,
    storage_key: key,
    byte_size: bytes.byteLength,
    sha256,
  });
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'signer.document_uploaded',
    signer_id: signer.id,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, requested_document_id: requested.id, upload_id: id, name, content_type: contentType, byte_size: bytes.byteLength, sha256 },
  });
  return { envelope: await markInProgress(tx, envelope), signer };
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;

const badDrawing = (why: string) => validationError('signature.value', `signature.value: ${why}`);

/** The PNG of a drawn signature, or the 422 saying why it is none: its data URL, size, header and dimensions (read, not decoded). */
function drawnPng(value: string): Buffer | ApiError {
  const match = PNG_DATA_URL.exec(value);
  if (!match) return badDrawing('must be a PNG data URL (data:image/png;base64,…)');
  const png = Buffer.from(match[1]!, 'base64');
  if (png.length > MAX_DRAWN_SIGNATURE_BYTES) return badDrawing(`the drawing is larger than ${MAX_DRAWN_SIGNATURE_BYTES / 1024} KiB`);
  if (kindOf(png)?.[1] !== 'image/png') return badDrawing('not a PNG image');
  // The first chunk of a PNG is its IHDR: width and height, big-endian, at bytes 16 and 20.
  if (png.length < 33 || png.toString('latin1', 12, 16) !== 'IHDR') return badDrawing('not a PNG image (no IHDR header)');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_DRAWN_SIGNATURE_SIDE || height > MAX_DRAWN_SIGNATURE_SIDE || width * height > MAX_DRAWN_SIGNATURE_PIXELS) {
    return badDrawing(`the drawing is ${width}×${height} pixels; at most ${MAX_DRAWN_SIGNATURE_SIDE} a side and ${MAX_DRAWN_SIGNATURE_PIXELS / 1_000_000} million in all`);
  }
  return png;
}

export const decodeDrawingTask = sandboxTask<Uint8Array, DrawingCheck>('lib/domain/signature/drawing-check.ts', 'decodeDrawing', { timeMs: 5_000, heapMb: 256 });

/** What sign() needs of a drawn signature: decoded in a worker before its transaction opens. */
export interface VettedSignature {
  kind: 'typed' | 'drawn';
  value: string;
  /** Why the drawing is refused (thrown by sign() in its turn, after the 409s), or null. */
  refusal: ApiError | null;
}

/**
 * A drawn signature decoded as the seal will (drawing-check.ts, in lib/platform/sandbox), outside any transaction: a
 * PNG the seal could not embed is a 422 now, not an envelope without evidence later. Typed ones pass as they are.
 */
export async function vetSignature(signature: { kind: 'typed' | 'drawn'; value: string }): Promise<VettedSignature> {
  if (signature.kind !== 'drawn') return { ...signature, refusal: null };
  const png = drawnPng(signature.value);
  if (png instanceof ApiError) return { ...signature, refusal: png };
  const answer = await runSandboxed(decodeDrawingTask, new Uint8Array(png)).catch((error) => {
    throw sandboxRefusalError(error, { code: 'validation_error', field: 'signature.value', what: 'the drawing' });
  });
  return { ...signature, refusal: answer.ok ? null : badDrawing(answer.message) };
}

/** A typed name (plain text), or a drawn PNG that vetSignature() decoded; 422 on `signature.value` otherwise. */
function checkSignature(signature: VettedSignature): string {
  if (signature.kind === 'typed') {
    const r = Text(200).safeParse(signature.value);
    if (!r.success) throw validationError('signature.value', `signature.value: ${r.error.issues[0]?.message}`);
    return r.data;
  }
  if (signature.refusal) throw signature.refusal;
  return signature.value;
}

/**
 * `POST …/sign`: refused (409) while it is not the signer's turn, consent or the code is missing, a required field is
 * empty or a required document missing. Then, in one transaction: the signer `signed` with IP and user agent, their
 * signature fields stamped and their name / e-mail / date fields defaulted, `signer.signed` in the chain and
 * `signature.signer.signed` recorded; then the next turn opens, or the envelope completes.
 */
export async function sign(tx: Db | Tx, session: SignerSession, signature: VettedSignature, ctx: TurnContext): Promise<SignerSession> {
  const { signer } = session;
  let { envelope } = session;
  if (signer.locked_at) throw signerLocked();
  if (!(await isSignersTurn(tx, envelope, signer))) throw conflict('not_your_turn', 'Another signer signs before you: you will be e-mailed when it is your turn.');
  if (!signer.consent_given_at) throw conflict('consent_required', 'Give your consent to sign electronically first.');
  if (signer.verification_method !== 'none' && !signer.verified_at) throw conflict('verification_required', 'Confirm your identity with the one-time code first.');
  const value = checkSignature(signature);
  const fields = await tx
    .select()
    .from(signatureFields)
    .where(and(eq(signatureFields.envelope_id, envelope.id), eq(signatureFields.signer_id, signer.id)));
  const missing = fields.filter((f) => f.required && ['text', 'initials', 'checkbox'].includes(f.type) && (f.value === null || (f.type === 'checkbox' && f.value !== 'true')));
  if (missing.length) throw conflict('fields_incomplete', `${missing.length} required field(s) to fill first.`, `fields.${missing[0]!.id}`);
  const requested = await tx
    .select({ id: signatureRequestedDocuments.id })
    .from(signatureRequestedDocuments)
    .where(and(eq(signatureRequestedDocuments.envelope_id, envelope.id), eq(signatureRequestedDocuments.signer_id, signer.id), eq(signatureRequestedDocuments.required, true)));
  if (requested.length) {
    const uploaded = new Set(
      (
        await tx
          .select({ id: signatureUploads.requested_document_id })
          .from(signatureUploads)
          .where(
            inArray(
              signatureUploads.requested_document_id,
              requested.map((r) => r.id),
            ),
          )
      ).map((u) => u.id),
    );
    const absent = requested.filter((r) => !uploaded.has(r.id));
    if (absent.length) throw conflict('uploads_incomplete', `${absent.length} requested document(s) to upload first.`, `requested_documents.${absent[0]!.id}`);
  }

  const now = new Date();
  const [signed] = (await tx
    .update(signatureSigners)
    .set({ status: 'signed', signed_at: now, signed_ip: ctx.ip, signed_user_agent: ctx.userAgent, signature_kind: signature.kind, signature_value: value })
    .where(eq(signatureSigners.id, signer.id))
    .returning()) as [SignerRow];
  // What the signed PDF shows: the signature where its boxes are, and the signer's own name, e-mail and date where left empty.
  const defaults: Record<string, string | null> = { signature: null, name: signer.full_name, email: signer.email, date: todayParis(now) };
  for (const field of fields) {
    if (!(field.type in defaults) || field.filled_at) continue;
    await tx
      .update(signatureFields)
      .set({ value: defaults[field.type] ?? null, filled_at: now })
      .where(and(eq(signatureFields.id, field.id), isNull(signatureFields.filled_at)));
  }
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'signer.signed',
    signer_id: signer.id,
    occurred_at: now,
    event_data: {
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      signature_kind: signature.kind,
      signature_sha256: sha256Hex(Buffer.from(value, 'utf8')),
      document_hash: envelope.document_hash,
      verification_method: signer.verification_method,
      consent_text_version: signer.consent_text_version,
    },
  });
  envelope = await markInProgress(tx, envelope);
  await recordEvent(tx as Db, envelope.org_id, 'signature.signer.signed', signerEventObject(signed));
  const rest = await tx
    .select({ status: signatureSigners.status })
    .from(signatureSigners)
    .where(eq(signatureSigners.envelope_id, envelope.id));
  if (rest.every((s) => s.status === 'signed')) envelope = await completeEnvelope(tx, envelope, ctx);
  else await openTurns(tx, envelope.id, ctx);
  return { envelope, signer: signed };
}
