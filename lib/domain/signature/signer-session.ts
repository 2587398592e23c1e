import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import {
  signatureDeadTokens,
  signatureDocuments,
  signatureEnvelopes,
  signatureFields,
  signatureRequestedDocuments,
  signatureSigners,
  signatureUploads,
} from '@/db/schema';
import { ApiError, notFound } from '@/lib/platform/errors';
import { appendAuditEvent } from './audit';
import { hashSignerToken } from './tokens';
import { currentTurn, type TurnContext } from './turns';

export type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
export type SignerRow = typeof signatureSigners.$inferSelect;

/** The consent text the signing page shows, per version (CONSENT_TEXT_VERSION records which one an envelope used). */
export const CONSENT_TEXTS: Record<string, { fr: string; en: string }> = {
  '2026-11-26': {
    fr:
      'J’accepte de signer ce document électroniquement. Je reconnais que ma signature électronique a la même valeur qu’une signature manuscrite ' +
      '(articles 1366 et 1367 du Code civil, règlement eIDAS n° 910/2014), que mon adresse IP, mon navigateur et l’horodatage de chaque étape sont ' +
      'enregistrés comme preuve, et que je recevrai une copie du document signé.',
    en:
      'I agree to sign this document electronically. I acknowledge that my electronic signature has the same value as a handwritten one ' +
      '(French Civil Code articles 1366 and 1367, eIDAS Regulation (EU) No 910/2014), that my IP address, browser and the time of each step are ' +
      'recorded as evidence, and that I will receive a copy of the signed document.',
  },
};

export const linkExpired = () => new ApiError(410, 'link_expired', 'This signing link no longer works.');

/** A token as we issue them: 256 bits in base64url. Anything else cannot be one (404 without a lookup). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface SignerSession {
  envelope: EnvelopeRow;
  signer: SignerRow;
}

/**
 * The signer and envelope behind a link. Unknown → 404 `not_found`; a link that no longer works (its token killed or
 * replaced, the envelope closed or past its expiry, the signer done) → 410 `link_expired`; nothing else is said.
 * `lock`: the envelope row is locked first (every write of the signer API), so that one envelope's signatures, turns
 * and completion happen one after the other.
 */
export async function openSession(conn: Db | Tx, rawToken: string, lock = false): Promise<SignerSession> {
  if (!TOKEN.test(rawToken)) throw notFound('Signing link');
  const hash = hashSignerToken(rawToken);
  const [found] = await conn.select({ envelope_id: signatureSigners.envelope_id }).from(signatureSigners).where(eq(signatureSigners.token_hash, hash));
  if (!found) {
    const [dead] = await conn.select({ hash: signatureDeadTokens.token_hash }).from(signatureDeadTokens).where(eq(signatureDeadTokens.token_hash, hash));
    throw dead ? linkExpired() : notFound('Signing link');
  }
  const envelopeQuery = conn.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, found.envelope_id));
  const [envelope] = lock ? await envelopeQuery.for('update') : await envelopeQuery;
  // Read again under the lock: a concurrent request may have finished or killed it meanwhile.
  const [signer] = await conn.select().from(signatureSigners).where(eq(signatureSigners.token_hash, hash));
  if (!envelope || !signer) throw linkExpired();
  const now = Date.now();
  if (envelope.status !== 'sent' && envelope.status !== 'in_progress') throw linkExpired();
  if ((envelope.expires_at && envelope.expires_at.getTime() <= now) || (signer.token_expires_at && signer.token_expires_at.getTime() <= now)) throw linkExpired();
  if (signer.status === 'signed' || signer.status === 'declined') throw linkExpired();
  return { envelope, signer };
}

/**
 * The first action of any signer moves the envelope from `sent` to `in_progress` (DESIGN §12). Returns the envelope
 * as it is now.
 */
export async function markInProgress(tx: Db | Tx, envelope: EnvelopeRow): Promise<EnvelopeRow> {
  if (envelope.status !== 'sent') return envelope;
  const [row] = await tx.update(signatureEnvelopes).set({ status: 'in_progress' }).where(eq(signatureEnvelopes.id, envelope.id)).returning();
  return row!;
}

/** `GET /api/sign/<token>`: the first visit of a notified signer marks them `opened` (`signer.opened` in the chain). */
export async function openSigner(tx: Db | Tx, session: SignerSession, ctx: TurnContext): Promise<SignerSession> {
  let { envelope, signer } = session;
  if (signer.status === 'notified') {
    const now = new Date();
    [signer] = (await tx.update(signatureSigners).set({ status: 'opened', opened_at: now }).where(eq(signatureSigners.id, signer.id)).returning()) as [SignerRow];
    await appendAuditEvent(tx, envelope.id, { event_type: 'signer.opened', signer_id: signer.id, occurred_at: now, event_data: { ip: ctx.ip, user_agent: ctx.userAgent } });
  }
  envelope = await markInProgress(tx, envelope);
  return { envelope, signer };
}

/** `POST …/consent`: the consent to sign electronically, with the version of the text shown; once. */
export async function giveConsent(tx: Db | Tx, session: SignerSession, ctx: TurnContext): Promise<SignerSession> {
  let { envelope, signer } = session;
  if (!signer.consent_given_at) {
    const now = new Date();
    [signer] = (await tx
      .update(signatureSigners)
      .set({ consent_given_at: now, consent_text_version: envelope.consent_text_version })
      .where(eq(signatureSigners.id, signer.id))
      .returning()) as [SignerRow];
    await appendAuditEvent(tx, envelope.id, {
      event_type: 'signer.consent_given',
      signer_id: signer.id,
      occurred_at: now,
      event_data: { ip: ctx.ip, user_agent: ctx.userAgent, consent_text_version: envelope.consent_text_version },
    });
  }
  envelope = await markInProgress(tx, envelope);
  return { envelope, signer };
}

/** Whether this signer may sign now (sequential routing: their routing_order is the lowest still unsigned). */
export async function isSignersTurn(conn: Db | Tx, envelope: EnvelopeRow, signer: SignerRow): Promise<boolean> {
  const signers = await conn.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelope.id));
  return currentTurn(envelope.routing_mode, signers).some((s) => s.id === signer.id);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * What `GET /api/sign/<token>` (and every action) answers: the signer's state and nothing of the other signers.
 * `parallel`: on the pool, outside a transaction.
 */
export async function signerState(conn: Db | Tx, session: SignerSession, lang: 'fr' | 'en' = 'fr', parallel = false) {
  const { envelope, signer } = session;
  // Independent reads, each through the envelope's index. Outside a transaction they run side by side on the pool;
  // inside one, one after the other (a pg client must not be handed a query while it runs another).
  const docQ = () =>
    envelope.document_id
      ? conn.select({ page_count: signatureDocuments.page_count }).from(signatureDocuments).where(eq(signatureDocuments.id, envelope.document_id))
      : Promise.resolve([]);
  const fieldsQ = () =>
    conn.select().from(signatureFields).where(and(eq(signatureFields.envelope_id, envelope.id), eq(signatureFields.signer_id, signer.id))).orderBy(asc(signatureFields.position));
  const mine = and(eq(signatureRequestedDocuments.envelope_id, envelope.id), eq(signatureRequestedDocuments.signer_id, signer.id));
  const requestedQ = () => conn.select().from(signatureRequestedDocuments).where(mine).orderBy(asc(signatureRequestedDocuments.position));
  // Through the requested documents (indexed), not a scan of every upload by signer_id.
  const uploadsQ = () =>
    conn
      .select()
      .from(signatureUploads)
      .where(inArray(signatureUploads.requested_document_id, conn.select({ id: signatureRequestedDocuments.id }).from(signatureRequestedDocuments).where(mine)))
      .orderBy(asc(signatureUploads.id));
  const turnQ = () => isSignersTurn(conn, envelope, signer);
  const [[doc], fields, requested, uploads, yourTurn] = parallel
    ? await Promise.all([docQ(), fieldsQ(), requestedQ(), uploadsQ(), turnQ()])
    : ([await docQ(), await fieldsQ(), await requestedQ(), await uploadsQ(), await turnQ()] as const);
  const consent = CONSENT_TEXTS[envelope.consent_text_version];
  return {
    envelope: {
      id: envelope.id,
      status: envelope.status,
      subject: envelope.subject,
      message: envelope.message,
      sender_name: envelope.sender_name,
      page_count: doc?.page_count ?? null,
    },
    signer: {
      id: signer.id,
      email: signer.email,
      full_name: signer.full_name,
      status: signer.status,
      verification_method: signer.verification_method,
      verified: signer.verification_method === 'none' || signer.verified_at !== null,
      locked: signer.locked_at !== null,
      consent_given_at: iso(signer.consent_given_at),
      signed_at: iso(signer.signed_at),
      your_turn: yourTurn,
    },
    fields: fields.map((f) => ({
      id: f.id,
      type: f.type,
      page: f.page,
      x: f.x,
      y: f.y,
      width: f.width,
      height: f.height,
      required: f.required,
      label: f.label,
      value: f.value,
      filled_at: iso(f.filled_at),
    })),
    requested_documents: requested.map((r) => ({
      id: r.id,
      label: r.label,
      description: r.description,
      required: r.required,
      uploads: uploads
        .filter((u) => u.requested_document_id === r.id)
        .map((u) => ({ id: u.id, name: u.name, content_type: u.content_type, byte_size: u.byte_size, sha256: u.sha256, created_at: u.created_at.toISOString() })),
    })),
    consent_text: consent ? consent[lang] : null,
    /** Both languages of the same version, for a page that switches language without asking again. */
    consent_texts: consent ?? null,
    consent_text_version: envelope.consent_text_version,
  };
}
export type SignerState = Awaited<ReturnType<typeof signerState>>;
