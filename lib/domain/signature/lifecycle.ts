import { and, asc, eq, isNull } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { v7 as uuidv7 } from 'uuid';
import type { Db, Tx } from '@/db/client';
import { signatureApprovers, signatureDocuments, signatureEnvelopes, signatureSigners } from '@/db/schema';
import { conflict, notFound, validationError } from '@/lib/platform/errors';
import { loadDocument } from '@/lib/domain/documents';
import { recordEvent } from '@/lib/platform/events';
import { documentPdfForSending } from '@/lib/domain/pdf';
import { getStorage, objectKey } from '@/lib/platform/storage';
import { addDays, parisEndOfDay, todayParis } from '@/lib/platform/dates';
import { appendAuditEvent, auditEvents, publicAuditEvent } from './audit';
import { type Actor, envelopeSummary, publicSigner } from './envelopes';
import { envelopeEventObject } from './events';
import type { EnvelopePatch, ReactivateInput } from './lifecycle-schemas';
import { queueExpiredEmails, queueSignerRequest } from './signature-emails';
import { placeTagFields } from './text-tags';
import { decryptSignerToken, issueSignerToken, killSignerTokens, signerUrl } from './tokens';
import { nextReminderAt, openTurns } from './turns';

export type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
export type SignerRow = typeof signatureSigners.$inferSelect;

/**
 * How long an envelope sent without `expires_at` stays open (and so its links): 30 days, the default validity of a
 * quote (invoice settings `default_validity_days`), to the end of that Paris day (23:59:59, as a date typed in the
 * form), not to the hour of the sending. Neither the spec nor DESIGN gives one; a link that never dies would be a
 * bearer secret forever. docs/signature.md, "Lifecycle".
 */
export const DEFAULT_EXPIRY_DAYS = 30;
const defaultExpiry = (now: Date) => new Date(parisEndOfDay(addDays(todayParis(now), DEFAULT_EXPIRY_DAYS)));

export const ACTIVE_STATUSES = ['sent', 'in_progress'] as const;
export const isActive = (status: EnvelopeRow['status']) => status === 'sent' || status === 'in_progress';

/** The org's envelope (another org's is a 404), locked for the transaction when `forUpdate`. */
export async function loadEnvelope(conn: Db | Tx, orgId: string, id: string, forUpdate = false): Promise<EnvelopeRow> {
  const q = conn
    .select()
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.org_id, orgId), eq(signatureEnvelopes.id, id)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Signature envelope');
  return row;
}

export const signersOf = (conn: Db | Tx, envelopeId: string) =>
  conn.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));

/** The spec's envelope "with signers" (create, patch and the lifecycle actions answer it). */
export async function envelopeWithSigners(conn: Db | Tx, envelopeId: string) {
  const [row] = await conn.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
  const signers = await signersOf(conn, envelopeId);
  return { ...envelopeSummary(row!), signers: signers.map(publicSigner) };
}

/** What an owner-side event records of who acted. */
export const actorData = (actor: Actor) => ({
  ip: actor.ip,
  user_agent: actor.user_agent,
  user_id: actor.user_id ?? null,
  api_key_id: actor.api_key_id ?? null,
});

const notActive = (row: EnvelopeRow, what: string) =>
  conflict('envelope_not_active', `The envelope is ${row.status}: only a sent or in-progress envelope can be ${what}.`);

/** `PATCH /v1/signature/envelopes/{id}`: a draft only; the signer set is replaced, every omitted field takes its default. */
export async function patchEnvelope(db: Db, orgId: string, id: string, input: EnvelopePatch) {
  return db.transaction(async (tx) => {
    const row = await loadEnvelope(tx, orgId, id, true);
    if (row.status !== 'draft') throw conflict('envelope_not_draft', `The envelope is ${row.status}: only a draft can be changed.`);
    if (row.assurance_level === 'advanced') {
      const i = input.signers.findIndex((s) => s.verification_method === 'none');
      if (i >= 0) throw validationError(`signers.${i}.verification_method`, `signers.${i}.verification_method: cannot be none at the advanced assurance level`);
    }
    // The old signers' fields (tag-placed or manual) go with them (ON DELETE CASCADE).
    await tx.delete(signatureSigners).where(eq(signatureSigners.envelope_id, id));
    const signers = await tx
      .insert(signatureSigners)
      .values(
        input.signers.map((s, position) => ({
          org_id: orgId,
          envelope_id: id,
          position,
          email: s.email,
          full_name: s.full_name ?? null,
          phone: s.phone ?? null,
          // Parallel routing: everyone signs at once, whatever the order given (spec: ignored).
          routing_order: row.routing_mode === 'parallel' ? 0 : s.routing_order,
          verification_method: s.verification_method,
        })),
      )
      .returning({ id: signatureSigners.id, position: signatureSigners.position });
    // An uploaded PDF's text tags are placed again on the new signers (a 422 on signers when one is missing).
    if (row.document_id) await placeTagFields(tx, orgId, id, row.document_id, signers);
    await tx
      .update(signatureEnvelopes)
      .set({
        cc_recipients: input.cc_recipients ?? [],
        labels: input.labels ?? [],
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
        subject: input.subject ?? null,
        message: input.message ?? null,
        reply_to: input.reply_to ?? null,
        sender_name: input.sender_name ?? null,
        reminder_interval_hours: input.reminder_interval_hours ?? null,
        reminder_max_count: input.reminder_max_count ?? 1,
      })
      .where(eq(signatureEnvelopes.id, id));
    return envelopeWithSigners(tx, id);
  });
}

/** The PDF the signers will sign, frozen now for a quote or invoice (its rendered PDF), else the uploaded one. */
async function freezeBillingPdf(db: Db, envelope: EnvelopeRow) {
  if (envelope.source_kind === 'document' || envelope.document_id) return null;
  const pdf = await documentPdfForSending(db, envelope.org_id, envelope.source_document_id);
  const id = uuidv7();
  const key = objectKey('signature', envelope.org_id, 'documents', `${id}.pdf`);
  // Stored before the transaction (a rolled-back send leaves an unreferenced object, never a row without its file).
  const stored = await getStorage().put(key, pdf.content, { contentType: 'application/pdf' });
  const pageCount = (await PDFDocument.load(pdf.content, { updateMetadata: false })).getPageCount();
  return { id, key, name: pdf.filename, sha256: stored.sha256, byte_size: pdf.content.length, page_count: pageCount };
}

const UNSIGNABLE_SOURCE = new Set(['cancelled', 'rejected', 'expired']);

/** Why a draft cannot be sent (409 not a draft / approval pending, 422 no signer / past expiry); else its signers. */
async function sendRefusal(conn: Db | Tx, row: EnvelopeRow) {
  if (row.status !== 'draft') throw conflict('envelope_not_draft', `The envelope is ${row.status}: it was already sent.`);
  const pending = await conn
    .select({ id: signatureApprovers.id })
    .from(signatureApprovers)
    .where(and(eq(signatureApprovers.envelope_id, row.id), isNull(signatureApprovers.approved_at)));
  if (pending.length) throw conflict('approval_pending', `${pending.length} approver(s) have not approved the envelope yet.`);
  const signers = await signersOf(conn, row.id);
  if (signers.length === 0) throw validationError('signers', 'signers: the envelope has no signer');
  if (row.expires_at && row.expires_at <= new Date()) throw validationError('expires_at', 'expires_at: must be in the future to send');
  if (row.source_kind !== 'document') {
    // A quote refused, lapsed or cancelled since the draft was made is no longer an offer to sign.
    const billing = await loadDocument(conn as Db, row.org_id, row.source_document_id);
    if (UNSIGNABLE_SOURCE.has(billing.status)) throw conflict('source_not_signable', `The ${billing.type} ${billing.number ?? ''} is ${billing.status}: it can no longer be signed.`);
  }
  return signers;
}

/**
 * `POST …/send`: draft → sent (409 `envelope_not_draft`; 409 `approval_pending` while an approver has not approved;
 * 422 without signers or with a past `expires_at`). The document is frozen (a quote's or invoice's render becomes a
 * signature document), `document_hash` is its SHA-256, `expires_at` defaults to DEFAULT_EXPIRY_DAYS, `envelope.sent`
 * is appended and `signature.envelope.sent` recorded, then the first turn opens; all in one transaction.
 */
export async function sendEnvelope(db: Db, orgId: string, id: string, actor: Actor) {
  // Checked before the PDF is frozen (no render for a refused send), and again under the lock.
  await sendRefusal(db, await loadEnvelope(db, orgId, id));
  const frozen = await freezeBillingPdf(db, await loadEnvelope(db, orgId, id));
  return db.transaction(async (tx) => {
    const row = await loadEnvelope(tx, orgId, id, true);
    const signers = await sendRefusal(tx, row);
    const now = new Date();
    let documentId = row.document_id;
    if (frozen) {
      await tx.insert(signatureDocuments).values({
        id: frozen.id,
        org_id: orgId,
        name: frozen.name,
        storage_key: frozen.key,
        sha256: frozen.sha256,
        page_count: frozen.page_count,
        byte_size: frozen.byte_size,
        billing_document_id: row.source_document_id,
      });
      documentId = frozen.id;
    }
    const [doc] = documentId
      ? await tx
          .select({ sha256: signatureDocuments.sha256 })
          .from(signatureDocuments)
          .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, documentId)))
      : [];
    if (!doc) throw new Error(`envelope ${id} has no document to sign`);
    const expiresAt = row.expires_at ?? defaultExpiry(now);
    const [sent] = await tx
      .update(signatureEnvelopes)
      .set({ status: 'sent', sent_at: now, document_id: documentId, document_hash: doc.sha256, expires_at: expiresAt })
      .where(eq(signatureEnvelopes.id, id))
      .returning();
    await appendAuditEvent(tx, id, {
      event_type: 'envelope.sent',
      occurred_at: now,
      event_data: { ...actorData(actor), document_id: documentId, document_hash: doc.sha256, expires_at: expiresAt.toISOString(), signer_count: signers.length },
    });
    await recordEvent(tx, orgId, 'signature.envelope.sent', envelopeEventObject(sent!, signers.length));
    await openTurns(tx, id, { ip: actor.ip, userAgent: actor.user_agent });
    return envelopeWithSigners(tx, id);
  });
}

/** `POST …/cancel`: sent or in progress → cancelled; every link dies (409 `envelope_not_active` otherwise). */
export async function cancelEnvelope(db: Db, orgId: string, id: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const row = await loadEnvelope(tx, orgId, id, true);
    if (!isActive(row.status)) throw notActive(row, 'cancelled');
    const now = new Date();
    const [cancelled] = await tx
      .update(signatureEnvelopes)
      .set({ status: 'cancelled', cancelled_at: now, next_reminder_at: null })
      .where(eq(signatureEnvelopes.id, id))
      .returning();
    await killSignerTokens(tx, id);
    const signers = await signersOf(tx, id);
    await appendAuditEvent(tx, id, { event_type: 'envelope.cancelled', occurred_at: now, event_data: { ...actorData(actor), previous_status: row.status } });
    await recordEvent(tx, orgId, 'signature.envelope.cancelled', envelopeEventObject(cancelled!, signers.length));
    return envelopeWithSigners(tx, id);
  });
}

/**
 * `POST …/reactivate`: expired → sent, until `expires_at` (default DEFAULT_EXPIRY_DAYS from now; 422 when past).
 * Each signer whose turn it was gets a fresh link by e-mail (the old ones died at expiry); 409
 * `envelope_not_expired` for any other status.
 */
/**
 * A sent or in-progress envelope, locked, whose `expires_at` has passed becomes `expired`: links killed,
 * `envelope.expired` appended, `signature.envelope.expired` recorded, the expired e-mail queued to the sender and to
 * each signer who had been notified and had not signed. The expiry job runs it on every due envelope; reactivate runs
 * it first on one the job has not reached yet, so that the owner never waits for the job's next run.
 */
export async function expireLocked(tx: Tx, row: EnvelopeRow) {
  // Recorded at the time it happens (the job's `now` only chooses which envelopes are due).
  const at = new Date();
  const [updated] = await tx
    .update(signatureEnvelopes)
    .set({ status: 'expired', expired_at: at, next_reminder_at: null })
    .where(eq(signatureEnvelopes.id, row.id))
    .returning();
  await killSignerTokens(tx, row.id);
  const signers = await signersOf(tx, row.id);
  await appendAuditEvent(tx, row.id, {
    event_type: 'envelope.expired',
    occurred_at: at,
    event_data: { ip: null, user_agent: null, expires_at: row.expires_at?.toISOString() ?? null, previous_status: row.status },
  });
  await recordEvent(tx, row.org_id, 'signature.envelope.expired', envelopeEventObject(updated!, signers.length));
  await queueExpiredEmails(tx, updated!, signers, at);
  return updated!;
}

export async function reactivateEnvelope(db: Db, orgId: string, id: string, input: ReactivateInput, actor: Actor) {
  return db.transaction(async (tx) => {
    let row = await loadEnvelope(tx, orgId, id, true);
    if (isActive(row.status) && row.expires_at && row.expires_at <= new Date()) row = await expireLocked(tx, row);
    if (row.status !== 'expired') throw conflict('envelope_not_expired', `The envelope is ${row.status}: only an expired envelope can be reactivated.`);
    const now = new Date();
    const expiresAt = input?.expires_at ? new Date(input.expires_at) : defaultExpiry(now);
    if (expiresAt <= now) throw validationError('expires_at', 'expires_at: must be in the future');
    const [reactivated] = await tx
      .update(signatureEnvelopes)
      .set({ status: 'sent', expires_at: expiresAt, expired_at: null, next_reminder_at: nextReminderAt(row, now) })
      .where(eq(signatureEnvelopes.id, id))
      .returning();
    await appendAuditEvent(tx, id, { event_type: 'envelope.reactivated', occurred_at: now, event_data: { ...actorData(actor), expires_at: expiresAt.toISOString() } });
    const ctx = { ip: actor.ip, userAgent: actor.user_agent };
    for (const signer of await signersOf(tx, id)) {
      if (signer.status !== 'notified' && signer.status !== 'opened') continue;
      const raw = await issueSignerToken(tx, signer.id);
      await appendAuditEvent(tx, id, {
        event_type: 'signer.notified',
        signer_id: signer.id,
        event_data: { ip: ctx.ip, user_agent: ctx.userAgent, email: signer.email, routing_order: signer.routing_order, channel: 'email', reactivated: true },
      });
      await queueSignerRequest(tx, reactivated!, signer, raw, 'request');
    }
    // A turn that had no one notified yet (none in practice) opens as at send.
    await openTurns(tx, id, ctx);
    return envelopeWithSigners(tx, id);
  });
}

/**
 * `POST …/signers/{signer_id}/link`: the signer's current link, from the encrypted copy of its token (DESIGN §12);
 * the token is not replaced, so the link already e-mailed keeps working. 409 `signer_link_unavailable` when the signer
 * has no live token (not their turn yet, done, or the envelope closed or past its expiry).
 */
export async function signerLink(db: Db, orgId: string, id: string, signerId: string) {
  const envelope = await loadEnvelope(db, orgId, id);
  const [signer] = await db
    .select()
    .from(signatureSigners)
    .where(and(eq(signatureSigners.org_id, orgId), eq(signatureSigners.envelope_id, id), eq(signatureSigners.id, signerId)));
  if (!signer) throw notFound('Signer');
  const unavailable = (why: string) => conflict('signer_link_unavailable', `The signer has no live link: ${why}.`);
  if (!isActive(envelope.status)) throw unavailable(`the envelope is ${envelope.status}`);
  if (signer.status === 'signed' || signer.status === 'declined') throw unavailable(`the signer has ${signer.status}`);
  if (!signer.token_hash) throw unavailable('it is not their turn yet');
  if (signer.token_expires_at && signer.token_expires_at <= new Date()) throw unavailable('the envelope is past its expiry');
  const raw = decryptSignerToken(signer.token_ciphertext, signer.token_hash);
  if (!raw) throw unavailable('the token cannot be recovered (the instance secret changed); send a reminder for a new one');
  return { url: signerUrl(raw), expires_at: signer.token_expires_at?.toISOString() ?? null };
}

/** `GET …/timeline`: the audit chain, oldest first. */
export async function envelopeTimeline(db: Db, orgId: string, id: string) {
  await loadEnvelope(db, orgId, id);
  return { data: (await auditEvents(db, id, orgId)).map(publicAuditEvent) };
}
