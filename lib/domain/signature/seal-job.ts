import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureDocuments, signatureEnvelopeDocuments, signatureEnvelopes, signatureRequestedDocuments, signatureSigners, signatureUploads } from '@/db/schema';
import { queueEmail } from '@/lib/platform/email';
import { defineJob } from '@/lib/platform/jobs';
import { runSandboxed, SandboxRefusal, sandboxTask } from '@/lib/platform/sandbox';
import { getStorage, objectKey, readAll, sha256Hex } from '@/lib/platform/storage';
import { auditEvents, verifyAuditChain } from './audit';
import { sealingIdentity } from './certificate';
import type { ComposeInput } from './compose';
import { SealFailure, sealErrorCode } from './evidence-state';
import { fieldsOf } from './fields';
import { buildProofPdf } from './proof';
import { type SealOptions, signPlaceholder } from './seal';
import type { ComposedForSeal } from './seal-in-worker';
import { envelopeMailContext, queueSealFailedEmail } from './signature-emails';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

export const SEAL_JOB = 'signature.seal';

export type SealOutcome = 'sealed' | 'proof_only' | 'already_done' | 'not_finished';

/** The original the signers signed, as stored: refused when it is gone or no longer the document whose hash they signed. */
async function readOriginal(key: string, expectedSha256: string): Promise<Buffer> {
  const object = await getStorage().get(key);
  if (!object) throw new SealFailure('original_missing', `the original PDF is missing from storage (key ${key})`);
  const bytes = await readAll(object.body);
  // Sealing other bytes than those whose hash the chain recorded would make the evidence contradict itself.
  if (sha256Hex(bytes) !== expectedSha256) throw new SealFailure('original_altered', `the stored original's SHA-256 is not the envelope's document_hash (key ${key})`);
  return bytes;
}

/** A 500-page original of 20 MB (the upload's limits) composes in a few seconds; the limits leave room for a loaded machine. */
export const composeTask = sandboxTask<{ input: ComposeInput; options: SealOptions }, ComposedForSeal>('lib/domain/signature/seal-in-worker.ts', 'composeForSeal', {
  timeMs: 120_000,
  heapMb: 1024,
});

/** The original composited and saved with the seal's placeholder, in the sandbox; its refusals are the seal's failures. */
async function composeInSandbox(input: ComposeInput, options: SealOptions): Promise<Uint8Array> {
  let answer: ComposedForSeal;
  try {
    answer = await runSandboxed(composeTask, { input, options });
  } catch (err) {
    // Busy or a crash: the queue tries again. Past the time or the heap, the original is what cannot be read.
    if (err instanceof SandboxRefusal && (err.reason === 'timeout' || err.reason === 'memory')) {
      throw new SealFailure('original_unreadable', `composing the signed PDF took more than its limits (${err.message})`);
    }
    throw err;
  }
  if (!answer.ok) throw new SealFailure(answer.code, answer.message);
  return answer.bytes;
}

function currentIdentity() {
  try {
    return sealingIdentity();
  } catch (err) {
    throw new SealFailure('certificate_unavailable', `the sealing certificate cannot be used (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * The evidence of a finished envelope, once (DESIGN §12). Completed: the signed PDF composited and sealed (when it has
 * positioned fields), stored, its key and SHA-256 set; then the proof; then the completed e-mail with the signed PDF
 * (the proof without one). Declined: the proof only. All in one transaction on the locked envelope, whose proof_key
 * says it was done: a re-run finds it and does nothing (no second seal, no second e-mail).
 *
 * A failed attempt rolls all that back, then records itself on the envelope (attempts, the cause's code and message)
 * and is rethrown for the queue's retry; the last attempt (`lastAttempt`, true outside the job: nothing retries a
 * direct call) also marks the evidence failed and e-mails the sender, once (docs/signature.md).
 */
export async function sealEnvelope(db: Db, envelopeId: string, now = new Date(), { lastAttempt = true } = {}): Promise<SealOutcome> {
  try {
    return await sealOnce(db, envelopeId, now);
  } catch (err) {
    await recordSealFailure(db, envelopeId, err, lastAttempt);
    throw err;
  }
}

async function recordSealFailure(db: Db, envelopeId: string, err: unknown, lastAttempt: boolean) {
  const message = (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
  await db.transaction(async (tx) => {
    const [envelope] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId)).for('update');
    // Another job stored the evidence meanwhile (or the envelope is gone): this failure no longer describes it.
    if (!envelope || envelope.proof_key) return;
    const now = new Date();
    const failsNow = lastAttempt && !envelope.evidence_failed_at;
    const [row] = (await tx
      .update(signatureEnvelopes)
      .set({
        evidence_attempts: sql`${signatureEnvelopes.evidence_attempts} + 1`,
        evidence_error_code: sealErrorCode(err),
        evidence_error: message,
        ...(failsNow ? { evidence_failed_at: now } : {}),
        updated_at: now,
      })
      .where(eq(signatureEnvelopes.id, envelopeId))
      .returning()) as [EnvelopeRow];
    // Once per failure: a second job failing on an envelope already failed does not write to the sender again.
    if (failsNow) await queueSealFailedEmail(tx, row);
  });
}

async function sealOnce(db: Db, envelopeId: string, now: Date): Promise<SealOutcome> {
  return db.transaction(async (tx) => {
    const [envelope] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId)).for('update');
    if (!envelope || (envelope.status !== 'completed' && envelope.status !== 'declined')) return 'not_finished';
    if (envelope.proof_key) return 'already_done';
    const signers = await tx.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
    const [doc] = envelope.document_id ? await tx.select().from(signatureDocuments).where(eq(signatureDocuments.id, envelope.document_id)) : [];
    let row: EnvelopeRow = envelope;
    let signed: Buffer | null = null;
    const identity = currentIdentity();
    if (envelope.status === 'completed') {
      const fields = await fieldsOf(tx, envelopeId);
      if (fields.length > 0 && doc) {
        const original = await readOriginal(doc.storage_key, envelope.document_hash ?? doc.sha256);
        const options = {
          reason: `Signature électronique de l'enveloppe ${envelope.id} / Electronic signature of envelope ${envelope.id}`,
          location: 'Paraphe',
          name: identity.subject,
          contactInfo: envelope.reply_to ?? '',
          signingTime: now,
        };
        signed = await signPlaceholder(await composeInSandbox({ original, envelope, signers, fields, documentName: doc.name }, options), identity, now);
        const key = objectKey('signature', envelope.org_id, 'signed', `${envelope.id}.pdf`);
        await getStorage().put(key, signed, { contentType: 'application/pdf' });
        [row] = (await tx
          .update(signatureEnvelopes)
          .set({ signed_document_key: key, signed_document_sha256: sha256Hex(signed), updated_at: now })
          .where(eq(signatureEnvelopes.id, envelopeId))
          .returning()) as [EnvelopeRow];
      }
    }
    const proof = await buildProofPdf({
      envelope: row,
      signers,
      chain: await auditEvents(tx, envelopeId),
      chainReport: await verifyAuditChain(tx, envelopeId),
      document: doc ? { name: doc.name, sha256: doc.sha256, page_count: doc.page_count } : null,
      // The title the e-mails give it (the subject, « Devis D-2026-0042 », the uploaded name), not a file of ours.
      documentTitle: (await envelopeMailContext(tx, row)).document_title,
      attachments: await tx
        .select({ name: signatureDocuments.name, sha256: signatureDocuments.sha256, page_count: signatureDocuments.page_count })
        .from(signatureEnvelopeDocuments)
        .innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureEnvelopeDocuments.document_id))
        .where(eq(signatureEnvelopeDocuments.envelope_id, envelopeId))
        .orderBy(asc(signatureEnvelopeDocuments.position)),
      uploads: await tx
        .select({
          signer_id: signatureUploads.signer_id,
          requested_label: signatureRequestedDocuments.label,
          name: signatureUploads.name,
          content_type: signatureUploads.content_type,
          byte_size: signatureUploads.byte_size,
          sha256: signatureUploads.sha256,
          uploaded_at: signatureUploads.created_at,
        })
        .from(signatureUploads)
        .innerJoin(signatureRequestedDocuments, eq(signatureRequestedDocuments.id, signatureUploads.requested_document_id))
        .where(eq(signatureUploads.envelope_id, envelopeId))
        .orderBy(asc(signatureUploads.id)),
      seal: signed ? { subject: identity.subject, fingerprint: identity.fingerprint } : null,
      generatedAt: now,
    });
    const proofKey = objectKey('signature', envelope.org_id, 'proofs', `${envelope.id}.pdf`);
    await getStorage().put(proofKey, proof, { contentType: 'application/pdf' });
    // This attempt counts, and the earlier failures' cause no longer applies (evidence `sealed`).
    await tx
      .update(signatureEnvelopes)
      .set({ proof_key: proofKey, evidence_attempts: sql`${signatureEnvelopes.evidence_attempts} + 1`, evidence_error_code: null, evidence_error: null, evidence_failed_at: null, updated_at: now })
      .where(eq(signatureEnvelopes.id, envelopeId));
    if (envelope.status === 'completed') await queueCompletedEmails(tx, row, signers, signed ?? Buffer.from(proof), signed ? 'signed' : 'proof', doc?.name ?? 'document.pdf');
    return signed ? 'sealed' : 'proof_only';
  });
}

/** One e-mail per signer (greeted by name), one to the sender with the copied recipients, each with the file. */
async function queueCompletedEmails(tx: Tx, envelope: EnvelopeRow, signers: SignerRow[], file: Buffer, attachment: 'signed' | 'proof', name: string) {
  const ctx = await envelopeMailContext(tx, envelope);
  const stem = name.replace(/\.pdf$/i, '');
  const filename = attachment === 'signed' ? `${stem} - signé.pdf` : `preuve-${stem}.pdf`;
  const common = {
    seller_name: ctx.seller_name,
    sender_name: ctx.sender_name,
    document_title: ctx.document_title,
    completed_at: (envelope.completed_at ?? new Date()).toISOString(),
    signers: signers.map((s) => s.full_name ?? s.email),
    attachment,
  };
  const attachments = [{ filename, contentType: 'application/pdf', content: file }];
  const signerEmails = new Set(signers.map((s) => s.email.toLowerCase()));
  for (const s of signers) {
    await queueEmail(tx, envelope.org_id, {
      template: 'signature_completed',
      to: [s.email],
      replyTo: ctx.reply_to,
      language: ctx.language,
      attachments,
      data: { ...common, recipient_name: s.full_name },
    });
  }
  const others = [ctx.sender_email, ...envelope.cc_recipients].filter((a): a is string => !!a && !signerEmails.has(a.toLowerCase()));
  const [to, ...cc] = [...new Set(others.map((a) => a.toLowerCase()))];
  if (to) {
    await queueEmail(tx, envelope.org_id, { template: 'signature_completed', to: [to], cc, replyTo: ctx.reply_to, language: ctx.language, attachments, data: { ...common, recipient_name: null } });
  }
}

export const sealEnvelopeJob = defineJob<{ envelope_id: string }>({
  name: SEAL_JOB,
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryBackoff: true,
  expireInSeconds: 600,
  async handle(data, { db, attempt }) {
    // pdf's convention (lib/domain/pdf/jobs.ts): the attempt after the last retry is the last; pg-boss runs no other.
    await sealEnvelope(db, data.envelope_id, new Date(), { lastAttempt: attempt > sealEnvelopeJob.retryLimit });
  },
});
