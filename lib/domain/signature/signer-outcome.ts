import { and, count, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureDeadTokens, signatureEnvelopes, signatureSigners } from '@/db/schema';
import { ApiError, conflict, notFound } from '@/lib/platform/errors';
import { type EnvelopePdf, signedPdf } from './downloads';
import { linkExpired, openSession, type SignerSession } from './signer-session';
import { hashSignerToken } from './tokens';

/**
 * What a signing link says once it no longer signs (issue 35, item 9): the signer's done page instead of a bare
 * « Lien expiré ». The link stays the signer's key to their own envelope's outcome and, for a limited time, to its
 * signed PDF (`GET /api/sign/<token>/signed`); it never acts on anything again.
 */

/** How long after completion the signer's link still downloads the signed PDF (the e-mail carries it too). */
export const SIGNED_DOWNLOAD_DAYS = 30;

/** Where the signed PDF of a completed envelope stands, for its signer. */
export type SignedDocumentState =
  /** Sealed and within SIGNED_DOWNLOAD_DAYS: the link downloads it. */
  | 'ready'
  /** The seal job has not stored it yet. */
  | 'sealing'
  /** Every attempt of the seal job failed; the sender is told and retries. */
  | 'delayed'
  /** No positioned field: there is no signed PDF, the proof was e-mailed instead. */
  | 'proof_only'
  /** Past SIGNED_DOWNLOAD_DAYS: no longer downloadable here. */
  | 'closed';

export type SignerOutcome =
  /** The signer signed; `remaining` signers still have to (a count only: who they are is not the signer's business). */
  | { kind: 'signed'; remaining: number }
  | { kind: 'completed'; document: SignedDocumentState; download_until: string | null }
  | { kind: 'declined'; by_you: boolean }
  | { kind: 'expired' }
  | { kind: 'cancelled' }
  /** The link was replaced by a newer one (a new turn, a reactivation), whose e-mail the signer has. */
  | { kind: 'replaced' };

const DAY_MS = 86_400_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The signer and envelope a link belongs to, live or dead (a dead token is remembered with its signer); null if unknown. */
async function holderOf(conn: Db | Tx, rawToken: string): Promise<SignerSession | null> {
  if (!TOKEN.test(rawToken)) return null;
  const hash = hashSignerToken(rawToken);
  let [signer] = await conn.select().from(signatureSigners).where(eq(signatureSigners.token_hash, hash));
  if (!signer) {
    const [dead] = await conn.select().from(signatureDeadTokens).where(eq(signatureDeadTokens.token_hash, hash));
    if (!dead) return null;
    [signer] = await conn
      .select()
      .from(signatureSigners)
      .where(and(eq(signatureSigners.org_id, dead.org_id), eq(signatureSigners.id, dead.signer_id)));
  }
  if (!signer) return null;
  const [envelope] = await conn
    .select()
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.org_id, signer.org_id), eq(signatureEnvelopes.id, signer.envelope_id)));
  return envelope ? { envelope, signer } : null;
}

const downloadUntil = (session: SignerSession) => (session.envelope.completed_at ? new Date(session.envelope.completed_at.getTime() + SIGNED_DOWNLOAD_DAYS * DAY_MS) : null);

/** The outcome of a link that no longer signs (the envelope closed, the signer done, or the link replaced), from its rows. */
export async function outcomeOf(conn: Db | Tx, session: SignerSession, now = new Date()): Promise<SignerOutcome> {
  const { envelope: e, signer: s } = session;
  if (e.status === 'cancelled') return { kind: 'cancelled' };
  if (e.status === 'declined') return { kind: 'declined', by_you: s.status === 'declined' };
  const open = e.status === 'sent' || e.status === 'in_progress';
  // Past expires_at before the expiry job ran is expired already; a completed envelope's expires_at no longer matters.
  if (e.status === 'expired' || (open && e.expires_at && e.expires_at.getTime() <= now.getTime())) return { kind: 'expired' };
  // Completed means everyone signed; a link of anyone else (inconsistent rows) is told nothing of the file.
  if (e.status === 'completed' && s.status === 'signed') {
    const until = downloadUntil(session);
    let document: SignedDocumentState;
    if (!e.proof_key) document = e.evidence_failed_at ? 'delayed' : 'sealing';
    else if (!e.signed_document_key) document = 'proof_only';
    else document = until && until.getTime() > now.getTime() ? 'ready' : 'closed';
    return { kind: 'completed', document, download_until: document === 'ready' || document === 'closed' ? until!.toISOString() : null };
  }
  if (s.status === 'signed') {
    const [left] = await conn
      .select({ n: count() })
      .from(signatureSigners)
      .where(and(eq(signatureSigners.envelope_id, e.id), ne(signatureSigners.status, 'signed')));
    return { kind: 'signed', remaining: left?.n ?? 0 };
  }
  if (s.status === 'declined') return { kind: 'declined', by_you: true };
  // Sent or in progress and the signer not done, yet the link does not sign: it was killed or replaced.
  return { kind: 'replaced' };
}

/** What `/sign/<token>` shows: `unknown` (404), `live` (the signing page), or the outcome of a link that no longer signs. */
export type SignerLinkView = { view: 'unknown' } | { view: 'live' } | { view: 'done'; outcome: SignerOutcome };

/** Without acting on the link (no `signer.opened`). */
export async function signerLinkView(conn: Db | Tx, rawToken: string, now = new Date()): Promise<SignerLinkView> {
  try {
    await openSession(conn, rawToken);
    return { view: 'live' };
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
    if (err.status === 404) return { view: 'unknown' };
  }
  const holder = await holderOf(conn, rawToken);
  // A dead token always has its signer (the dead-token row cascades with it): this is the race of a deletion.
  if (!holder) return { view: 'unknown' };
  return { view: 'done', outcome: await outcomeOf(conn, holder, now) };
}

/** Whether the done page of this outcome is the signer's page (200) or the end of a link that does not work (410). */
export const outcomeIsSigned = (o: SignerOutcome) => o.kind === 'signed' || o.kind === 'completed';

/**
 * `GET /api/sign/<token>/signed`: the signed PDF of the link's own envelope, for a signer who signed it, for
 * SIGNED_DOWNLOAD_DAYS after completion. Unknown link, or a signer who did not sign: 404. Not completed yet: 409
 * `signed_document_unavailable`; the seal not done: 409 `evidence_pending` / `evidence_failed` (downloads.ts); past the
 * period, or the envelope closed otherwise: 410 `link_expired`.
 */
export async function signerSignedPdf(db: Db, rawToken: string, now = new Date()): Promise<EnvelopePdf> {
  const holder = await holderOf(db, rawToken);
  if (holder?.signer.status !== 'signed') throw notFound('Signed document');
  const { envelope } = holder;
  if (envelope.status === 'sent' || envelope.status === 'in_progress') {
    if (!(envelope.expires_at && envelope.expires_at.getTime() <= now.getTime())) {
      throw conflict('signed_document_unavailable', 'No signed PDF yet: other signers have still to sign.');
    }
  }
  if (envelope.status !== 'completed') throw linkExpired();
  const until = downloadUntil(holder);
  if (!until || until.getTime() <= now.getTime()) throw linkExpired();
  // Scoped by the holder's own org and envelope: a link reaches no other file.
  return signedPdf(db, envelope.org_id, envelope.id);
}
