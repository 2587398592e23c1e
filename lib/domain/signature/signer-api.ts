import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureDocuments, signatureSigners } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { contentDisposition, etagMatches } from '@/lib/domain/pdf';
import { getStorage } from '@/lib/platform/storage';
import { declineEnvelope } from './completion';
import { checkSignerCode, sendSignerCode } from './otp';
import { giveConsent, markInProgress, openSession, openSigner, type SignerSession, signerState } from './signer-session';
import { outcomeOf } from './signer-outcome';
import { addUpload, fillField, sign, vetSignature } from './signing';
import type { TurnContext } from './turns';

/**
 * The signer's public API (`/api/sign/<token>/…`, DESIGN §12): each call resolves the link (404 unknown, 410 dead),
 * locks the envelope, acts in one transaction, and answers the signer's state. The routes under app/api/sign only
 * parse and call these.
 */
type Lang = 'fr' | 'en';

const reload = async (tx: Db, signerId: string) => (await tx.select().from(signatureSigners).where(eq(signatureSigners.id, signerId)))[0]!;

/**
 * The state every call answers, with `outcome` (an addition to DESIGN's shape, issue 35): null while the signer has
 * something to do; once they signed or declined, what happened (signer-outcome.ts), which the page's end shows.
 */
async function stateOf(conn: Db, session: SignerSession, lang: Lang, parallel = false) {
  const state = await signerState(conn, session, lang, parallel);
  const done = session.signer.status === 'signed' || session.signer.status === 'declined';
  return { ...state, outcome: done ? await outcomeOf(conn, session) : null };
}

async function act(db: Db, token: string, lang: Lang, change: (tx: Db, session: SignerSession) => Promise<SignerSession>) {
  return db.transaction(async (tx) => {
    const session = await change(tx, await openSession(tx, token, true));
    return stateOf(tx, session, lang);
  });
}

/**
 * `GET /api/sign/<token>`: the state; a notified signer's first visit marks them opened. Only that first visit (or
 * one that moves the envelope to in_progress) writes: the others read without locking the envelope.
 */
export async function getSignerState(db: Db, token: string, ctx: TurnContext, lang: Lang = 'fr') {
  const session = await openSession(db, token);
  if (session.signer.status !== 'notified' && session.envelope.status !== 'sent') return stateOf(db, session, lang, true);
  return act(db, token, lang, (tx, s) => openSigner(tx, s, ctx));
}

/** `POST …/consent`. */
export const consentToSign = (db: Db, token: string, ctx: TurnContext, lang: Lang = 'fr') => act(db, token, lang, (tx, s) => giveConsent(tx, s, ctx));

/** `POST …/code` → 202: the state and where the code went. */
export async function requestSignerCode(db: Db, token: string, ctx: TurnContext, lang: Lang = 'fr') {
  return db.transaction(async (tx) => {
    const session = await openSession(tx, token, true);
    const code = await sendSignerCode(tx, session.envelope, session.signer, ctx);
    const envelope = await markInProgress(tx, session.envelope);
    return { ...(await stateOf(tx, { ...session, envelope }, lang)), code };
  });
}

/** `POST …/code/verify`: a failure is committed (attempts, chain, lock) before its 422 / 423 is thrown. */
export async function verifySignerCode(db: Db, token: string, code: string, ctx: TurnContext, lang: Lang = 'fr') {
  const outcome = await db.transaction(async (tx) => {
    const session = await openSession(tx, token, true);
    const check = await checkSignerCode(tx, session.envelope, session.signer, code, ctx);
    if (!check.ok) return { error: check.error };
    const envelope = await markInProgress(tx, session.envelope);
    return { state: await stateOf(tx, { envelope, signer: await reload(tx, session.signer.id) }, lang) };
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.state;
}

/** `PUT …/fields/<field_id>`. */
export const fillSignerField = (db: Db, token: string, fieldId: string, value: string | boolean | null, ctx: TurnContext, lang: Lang = 'fr') =>
  act(db, token, lang, (tx, s) => fillField(tx, s, fieldId, value, ctx));

/** `POST …/uploads`. */
export const uploadSignerDocument = (db: Db, token: string, requestedDocumentId: string, file: File, ctx: TurnContext, lang: Lang = 'fr') =>
  act(db, token, lang, (tx, s) => addUpload(tx, s, requestedDocumentId, file, ctx));

/** `POST …/sign`. */
export async function signEnvelope(db: Db, token: string, signature: { kind: 'typed' | 'drawn'; value: string }, ctx: TurnContext, lang: Lang = 'fr') {
  // A drawing is decoded in a worker before the transaction (and its envelope lock) opens; a dead link is told so first.
  if (signature.kind === 'drawn') await openSession(db, token);
  const vetted = await vetSignature(signature);
  return act(db, token, lang, (tx, s) => sign(tx, s, vetted, ctx));
}

/** `POST …/decline`. */
export const declineToSign = (db: Db, token: string, reason: string, ctx: TurnContext, lang: Lang = 'fr') =>
  act(db, token, lang, async (tx, s) => {
    const envelope = await declineEnvelope(tx, s.envelope, s.signer, reason, ctx);
    return { envelope, signer: await reload(tx, s.signer.id) };
  });

/**
 * `GET …/document`: the PDF the signer signs, from storage, with its SHA-256 as a strong ETag (a page that reloads
 * gets 304 and keeps its copy).
 */
export async function signerDocument(db: Db, token: string, ifNoneMatch: string | null): Promise<Response> {
  const { envelope } = await openSession(db, token);
  if (!envelope.document_id) throw notFound('Document');
  const [doc] = await db.select().from(signatureDocuments).where(eq(signatureDocuments.id, envelope.document_id));
  if (!doc) throw notFound('Document');
  const headers = { ETag: `"${doc.sha256}"`, 'Cache-Control': 'private, no-cache', 'Content-Type': 'application/pdf' };
  if (etagMatches(ifNoneMatch, doc.sha256)) return new Response(null, { status: 304, headers });
  const object = await getStorage().get(doc.storage_key);
  if (!object) throw notFound('Document');
  return new Response(object.body, {
    status: 200,
    headers: { ...headers, 'Content-Length': String(object.size), 'Content-Disposition': contentDisposition(doc.name.replace(/[\r\n]/g, ' ')), 'X-Content-Type-Options': 'nosniff' },
  });
}
