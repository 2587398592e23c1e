import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { paymentLinks } from '@/db/schema';
import { appBaseUrl, authSecret } from '@/lib/platform/config';
import { type Conn, type DocumentRow, loadDocument } from '@/lib/domain/documents';
import { conflict } from '@/lib/platform/errors';
import { requireAccount } from './connect-account';
import type { PaymentLink } from './schemas';
import { requireProvider } from './stripe-provider';

/**
 * Why a document cannot be paid online (409 not_payable), or null: an invoice or deposit invoice, finalized, not
 * cancelled and not yet paid. A paid document's link stays (its page says so) but none is minted or sent for it.
 */
export function onlinePaymentRefusal(doc: DocumentRow): string | null {
  if (doc.type !== 'facture' && doc.type !== 'acompte') return `a ${doc.type === 'devis' ? 'quote' : 'credit note'} is not paid online`;
  if (!doc.finalized_at || doc.status === 'draft') return 'a draft is finalized before it is paid';
  if (doc.status === 'cancelled') return 'the document is cancelled';
  if (doc.status === 'paid') return 'the document is already paid';
  return null;
}

export function assertPayableOnline(doc: DocumentRow) {
  const why = onlinePaymentRefusal(doc);
  if (why) throw conflict('not_payable', `This document cannot be paid online: ${why}.`);
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// A key of its own, derived from AUTH_SECRET: several instances sharing AUTH_SECRET read each other's tokens.
const tokenKey = () => Buffer.from(hkdfSync('sha256', authSecret(), 'paraphe', 'payment-link-token', 32));

export function encryptToken(token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', tokenKey(), iv);
  const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

/** The token, or null when it cannot be recovered (AUTH_SECRET changed since, or the value was tampered with). */
export function decryptToken(stored: string | null, tokenHash: string): string | null {
  if (!stored) return null;
  try {
    const [iv, data, tag] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(), iv!);
    decipher.setAuthTag(tag!);
    const token = Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
    return hashToken(token) === tokenHash ? token : null;
  } catch {
    return null;
  }
}

export const payUrl = (token: string) => `${appBaseUrl()}/pay/${token}`;

type LinkRow = typeof paymentLinks.$inferSelect;

const newToken = () => {
  const token = randomBytes(32).toString('base64url');
  return { token, token_hash: hashToken(token), token_encrypted: encryptToken(token) };
};

const view = (row: LinkRow, already_exists: boolean, token: string | null): PaymentLink => ({
  already_exists,
  url: token ? payUrl(token) : null,
  expires_at: row.expires_at?.toISOString() ?? null,
});

/**
 * The document's link: minted on first use (a 256-bit token, stored as its SHA-256 plus an encrypted copy), else
 * the existing one with its URL when the token can be decrypted. `renew` (a send) replaces a token that cannot be
 * recovered, so the e-mail always carries a working URL; the old URL then stops working.
 */
export async function ensurePaymentLink(conn: Conn, orgId: string, documentId: string, { renew = false } = {}): Promise<PaymentLink> {
  const fresh = newToken();
  const [inserted] = await conn
    .insert(paymentLinks)
    .values({ org_id: orgId, document_id: documentId, token_hash: fresh.token_hash, token_encrypted: fresh.token_encrypted })
    .onConflictDoNothing({ target: paymentLinks.document_id })
    .returning();
  if (inserted) return view(inserted, false, fresh.token);
  const [existing] = await conn
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.org_id, orgId), eq(paymentLinks.document_id, documentId)));
  const token = decryptToken(existing!.token_encrypted, existing!.token_hash);
  if (token || !renew) return view(existing!, true, token);
  const [renewed] = await conn
    .update(paymentLinks)
    .set({ token_hash: fresh.token_hash, token_encrypted: fresh.token_encrypted })
    .where(eq(paymentLinks.id, existing!.id))
    .returning();
  return view(renewed!, true, fresh.token);
}

/**
 * POST /v1/invoices/{id}/payment-link. Checked in the spec's order: provider configured (503 payments_disabled),
 * connected account (409 payments_account_required), the document (404, then 409 not_payable).
 */
export async function createPaymentLink(db: Db, orgId: string, documentId: string): Promise<PaymentLink> {
  requireProvider();
  await requireAccount(db, orgId);
  return db.transaction(async (tx) => {
    const doc = await loadDocument(tx, orgId, documentId, true);
    assertPayableOnline(doc);
    return ensurePaymentLink(tx, orgId, doc.id);
  });
}
