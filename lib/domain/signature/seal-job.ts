import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureDocuments, signatureEnvelopeDocuments, signatureEnvelopes, signatureRequestedDocuments, signatureSigners, signatureUploads } from '@/db/schema';
import { queueEmail } from '@/lib/platform/email';
import { defineJob } from '@/lib/platform/jobs';
import { getStorage, objectKey, readAll, sha256Hex } from '@/lib/platform/storage';
import { auditEvents, verifyAuditChain } from './audit';
import { sealingIdentity } from './certificate';
import { composeSignedPdf } from './compose';
import { fieldsOf } from './fields';
import { buildProofPdf } from './proof';
import { sealPdf } from './seal';
import { envelopeMailContext } from './signature-emails';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

export const SEAL_JOB = 'signature.seal';

export type SealOutcome = 'sealed' | 'proof_only' | 'already_done' | 'not_finished';

async function readObject(key: string): Promise<Buffer> {
  const object = await getStorage().get(key);
  if (!object) throw new Error(`signature file missing from storage (key ${key})`);
  return readAll(object.body);
}

/**
 * The evidence of a finished envelope, once (DESIGN §12). Completed: the signed PDF composited and sealed (when it has
 * positioned fields), stored, its key and SHA-256 set; then the proof; then the completed e-mail with the signed PDF
 * (the proof without one). Declined: the proof only. All in one transaction on the locked envelope, whose proof_key
 * says it was done: a re-run finds it and does nothing (no second seal, no second e-mail).
 */
export async function sealEnvelope(db: Db, envelopeId: string, now = new Date()): Promise<SealOutcome> {
  return db.transaction(async (tx) => {
    const [envelope] = await tx.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId)).for('update');
    if (!envelope || (envelope.status !== 'completed' && envelope.status !== 'declined')) return 'not_finished';
    if (envelope.proof_key) return 'already_done';
    const signers = await tx.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
    const [doc] = envelope.document_id ? await tx.select().from(signatureDocuments).where(eq(signatureDocuments.id, envelope.document_id)) : [];
    let row: EnvelopeRow = envelope;
    let signed: Buffer | null = null;
    const identity = sealingIdentity();
    if (envelope.status === 'completed') {
      const fields = await fieldsOf(tx, envelopeId);
      if (fields.length > 0 && doc) {
        const composed = await composeSignedPdf({ original: await readObject(doc.storage_key), envelope, signers, fields, documentName: doc.name });
        signed = await sealPdf(composed, identity, {
          reason: `Signature électronique de l'enveloppe ${envelope.id} / Electronic signature of envelope ${envelope.id}`,
          location: 'Paraphe',
          name: identity.subject,
          contactInfo: envelope.reply_to ?? '',
          signingTime: now,
        });
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
    await tx.update(signatureEnvelopes).set({ proof_key: proofKey, updated_at: now }).where(eq(signatureEnvelopes.id, envelopeId));
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
  async handle(data, { db }) {
    await sealEnvelope(db, data.envelope_id);
  },
});
