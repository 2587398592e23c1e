import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureDocuments, type signatureEnvelopes, type signatureSigners, users } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import { loadContactRow, loadDocument } from '@/lib/domain/documents';
import { type Language, queueEmail } from '@/lib/platform/email';
import { getOrg } from '@/lib/platform/orgs';
import { signerUrl } from './tokens';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

/** The back-office page of an envelope (approvers, the sender's expired e-mail). */
export const envelopePageUrl = (envelopeId: string) => `${appBaseUrl()}/signature/${envelopeId}`;

export interface EnvelopeMailContext {
  seller_name: string;
  sender_name: string | null;
  document_title: string;
  /** The envelope's contact's preferred language (a quote's or invoice's client), French otherwise. */
  language: Language;
  reply_to: string | null;
  /** Who sent it: the staff member who created it, else the reply-to, else the org's address. */
  sender_email: string | null;
}

const TITLE = { devis: { fr: 'Devis', en: 'Quote' }, facture: { fr: 'Facture', en: 'Invoice' } } as const;

/** What every signature e-mail of this envelope says of it: the org, the document, the language. */
export async function envelopeMailContext(conn: Tx | Db, envelope: EnvelopeRow): Promise<EnvelopeMailContext> {
  const org = await getOrg(conn as Db, envelope.org_id);
  const contact = envelope.contact_id ? await loadContactRow(conn as Db, envelope.org_id, envelope.contact_id) : null;
  const language: Language = contact?.preferred_language === 'en' ? 'en' : 'fr';
  let title = envelope.subject;
  if (!title && envelope.source_kind === 'document') {
    const [doc] = await conn
      .select({ name: signatureDocuments.name })
      .from(signatureDocuments)
      .where(and(eq(signatureDocuments.org_id, envelope.org_id), eq(signatureDocuments.id, envelope.source_document_id)));
    title = doc?.name ?? null;
  } else if (!title && envelope.source_kind !== 'document') {
    const billing = await loadDocument(conn as Db, envelope.org_id, envelope.source_document_id).catch(() => null);
    title = billing?.number ? `${TITLE[envelope.source_kind][language]} ${billing.number}` : null;
  }
  let sender: string | null = null;
  if (envelope.created_by_user_id) {
    const [user] = await conn.select({ email: users.email }).from(users).where(eq(users.id, envelope.created_by_user_id));
    sender = user?.email ?? null;
  }
  return {
    seller_name: org.name,
    sender_name: envelope.sender_name,
    document_title: title ?? 'Document',
    language,
    reply_to: envelope.reply_to ?? org.email ?? null,
    sender_email: sender ?? envelope.reply_to ?? org.email ?? null,
  };
}

/** The request (or reminder) e-mail to a signer whose turn it is, with their link; in the caller's transaction. */
export async function queueSignerRequest(tx: Tx | Db, envelope: EnvelopeRow, signer: SignerRow, rawToken: string, kind: 'request' | 'reminder', ctx?: EnvelopeMailContext) {
  const c = ctx ?? (await envelopeMailContext(tx, envelope));
  return queueEmail(tx as Db, envelope.org_id, {
    template: kind === 'request' ? 'signature_request' : 'signature_reminder',
    to: [signer.email],
    replyTo: c.reply_to,
    language: c.language,
    data: {
      seller_name: c.seller_name,
      sender_name: c.sender_name,
      recipient_name: signer.full_name,
      document_title: c.document_title,
      message: envelope.message,
      sign_url: signerUrl(rawToken),
      expires_at: envelope.expires_at?.toISOString() ?? null,
    },
  });
}

/** The expired e-mails: one to each signer who had not signed, one to the sender. */
export async function queueExpiredEmails(tx: Tx | Db, envelope: EnvelopeRow, signers: SignerRow[], expiredAt: Date) {
  const c = await envelopeMailContext(tx, envelope);
  const common = { seller_name: c.seller_name, sender_name: c.sender_name, document_title: c.document_title, expired_at: expiredAt.toISOString() };
  for (const signer of signers) {
    if (signer.status === 'signed' || signer.status === 'declined' || signer.status === 'waiting') continue;
    await queueEmail(tx as Db, envelope.org_id, {
      template: 'signature_expired',
      to: [signer.email],
      replyTo: c.reply_to,
      language: c.language,
      data: { ...common, recipient_name: signer.full_name, to_sender: false },
    });
  }
  if (c.sender_email) {
    // The sender is staff: French, as the back-office.
    await queueEmail(tx as Db, envelope.org_id, {
      template: 'signature_expired',
      to: [c.sender_email],
      language: 'fr',
      data: { ...common, to_sender: true, envelope_url: envelopePageUrl(envelope.id) },
    });
  }
}

/** To a staff member just made approver: the back-office link where they approve (French, as the back-office). */
export async function queueApproverAdded(tx: Tx | Db, envelope: EnvelopeRow, approver: { email: string; name: string | null }) {
  const c = await envelopeMailContext(tx, envelope);
  return queueEmail(tx as Db, envelope.org_id, {
    template: 'signature_approval_requested',
    to: [approver.email],
    language: 'fr',
    data: {
      seller_name: c.seller_name,
      sender_name: c.sender_name,
      recipient_name: approver.name,
      document_title: c.document_title,
      envelope_url: envelopePageUrl(envelope.id),
    },
  });
}

/**
 * To the sender, once the seal job failed for good: the envelope is finished but its signed PDF and proof are not
 * stored, so the signers have not had their copy (the completed e-mail waits for the seal). French, as the back-office.
 */
export async function queueSealFailedEmail(tx: Tx | Db, envelope: EnvelopeRow) {
  const c = await envelopeMailContext(tx, envelope);
  if (!c.sender_email) return null;
  return queueEmail(tx as Db, envelope.org_id, {
    template: 'signature_seal_failed',
    to: [c.sender_email],
    language: 'fr',
    data: {
      seller_name: c.seller_name,
      sender_name: c.sender_name,
      document_title: c.document_title,
      envelope_status: envelope.status === 'declined' ? 'declined' : 'completed',
      error_code: envelope.evidence_error_code ?? 'internal_error',
      attempts: envelope.evidence_attempts,
      failed_at: (envelope.evidence_failed_at ?? new Date()).toISOString(),
      envelope_url: envelopePageUrl(envelope.id),
    },
  });
}
