import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { queueEmail } from '@/lib/platform/email';
import { recordEvent } from '@/lib/platform/events';
import { enqueue, type JobDefinition } from '@/lib/platform/jobs';
import { appendAuditEvent } from './audit';
import { envelopeEventObject, signerEventObject } from './events';
import { envelopeMailContext, envelopePageUrl } from './signature-emails';
import type { EnvelopeRow, SignerRow } from './signer-session';
import { killSignerTokens } from './tokens';
import type { TurnContext } from './turns';

/** H3's `signature.seal` job (composite, seal, proof, completed e-mail); named here so that completion depends on its name only. */
const sealJob = { name: 'signature.seal' } as JobDefinition<{ envelope_id: string }>;

const signersOf = (tx: Db | Tx, envelopeId: string) =>
  tx.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));

/**
 * The last signature (DESIGN §12, the helpers' contract), in its transaction: the envelope `completed`, every token
 * dead, `envelope.completed` in the chain, `signature.envelope.completed` recorded and the `signature.seal` job queued.
 */
export async function completeEnvelope(tx: Db | Tx, envelope: EnvelopeRow, ctx: TurnContext): Promise<EnvelopeRow> {
  const now = new Date();
  const [row] = await tx.update(signatureEnvelopes).set({ status: 'completed', completed_at: now, next_reminder_at: null }).where(eq(signatureEnvelopes.id, envelope.id)).returning();
  await killSignerTokens(tx, envelope.id);
  const signers = await signersOf(tx, envelope.id);
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'envelope.completed',
    occurred_at: now,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, signer_count: signers.length, document_hash: envelope.document_hash },
  });
  await recordEvent(tx as Db, envelope.org_id, 'signature.envelope.completed', envelopeEventObject(row!, signers.length));
  await enqueue(tx as Db, sealJob, { envelope_id: envelope.id });
  return row!;
}

/**
 * A signer declines (DESIGN §12): the signer and the envelope `declined`, every token dead, `signer.declined` and
 * `envelope.declined` in the chain, both events recorded, the declined e-mail to the sender and to the other signers
 * already notified, and `signature.seal` queued (it builds the proof only, for a declined envelope).
 */
export async function declineEnvelope(tx: Db | Tx, envelope: EnvelopeRow, signer: SignerRow, reason: string | null, ctx: TurnContext): Promise<EnvelopeRow> {
  const now = new Date();
  const [declinedSigner] = await tx
    .update(signatureSigners)
    .set({ status: 'declined', declined_at: now, decline_reason: reason })
    .where(eq(signatureSigners.id, signer.id))
    .returning();
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'signer.declined',
    signer_id: signer.id,
    occurred_at: now,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, reason },
  });
  const [row] = await tx.update(signatureEnvelopes).set({ status: 'declined', declined_at: now, next_reminder_at: null }).where(eq(signatureEnvelopes.id, envelope.id)).returning();
  await killSignerTokens(tx, envelope.id);
  const signers = await signersOf(tx, envelope.id);
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'envelope.declined',
    occurred_at: now,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, declined_by_signer_id: signer.id, reason },
  });
  await recordEvent(tx as Db, envelope.org_id, 'signature.signer.declined', signerEventObject(declinedSigner!));
  await recordEvent(tx as Db, envelope.org_id, 'signature.envelope.declined', envelopeEventObject(row!, signers.length, { declined_by_signer_id: signer.id, reason }));

  const mail = await envelopeMailContext(tx, envelope);
  const common = {
    seller_name: mail.seller_name,
    sender_name: mail.sender_name,
    document_title: mail.document_title,
    declined_by: signer.full_name ?? signer.email,
    reason,
    declined_at: now.toISOString(),
  };
  for (const other of signers) {
    if (other.id === signer.id || !other.notified_at) continue;
    await queueEmail(tx as Db, envelope.org_id, {
      template: 'signature_declined',
      to: [other.email],
      replyTo: mail.reply_to,
      language: mail.language,
      data: { ...common, recipient_name: other.full_name, to_sender: false },
    });
  }
  if (mail.sender_email) {
    // The sender is staff: French, as the back-office.
    await queueEmail(tx as Db, envelope.org_id, {
      template: 'signature_declined',
      to: [mail.sender_email],
      language: 'fr',
      data: { ...common, to_sender: true, envelope_url: envelopePageUrl(envelope.id) },
    });
  }
  await enqueue(tx as Db, sealJob, { envelope_id: envelope.id });
  return row!;
}
