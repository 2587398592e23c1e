import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { appBaseUrl, authSecret } from '@/lib/platform/config';
import { notFound } from '@/lib/platform/errors';

/**
 * Signer link tokens (DESIGN §12): 256-bit random, base64url; stored as their SHA-256 (what `/api/sign/<token>`
 * looks up) plus an AES-256-GCM copy for `POST …/signers/{id}/link`. They expire with the envelope and die
 * (`token_hash` null) on completion, decline, cancel and expiry.
 */
export const hashSignerToken = (raw: string): string => createHash('sha256').update(raw, 'utf8').digest('hex');

// A key of its own, derived from AUTH_SECRET (as payment links do): instances sharing AUTH_SECRET read each other's.
const tokenKey = () => Buffer.from(hkdfSync('sha256', authSecret(), 'paraphe', 'signature-signer-token', 32));

export function encryptSignerToken(raw: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', tokenKey(), iv);
  const data = Buffer.concat([cipher.update(raw, 'utf8'), cipher.final()]);
  return [iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

/** The raw token, or null when it cannot be recovered (AUTH_SECRET changed, tampered value, or not the live token). */
export function decryptSignerToken(stored: string | null, tokenHash: string | null): string | null {
  if (!stored || !tokenHash) return null;
  try {
    const [iv, data, tag] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(), iv!);
    decipher.setAuthTag(tag!);
    const raw = Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
    return hashSignerToken(raw) === tokenHash ? raw : null;
  } catch {
    return null;
  }
}

/** The public signing page of a token. */
export const signerUrl = (rawToken: string): string => `${appBaseUrl()}/sign/${rawToken}`;

/**
 * A fresh token for the signer (the previous one, if any, stops working), expiring with the envelope. Returns the
 * raw token: only its hash and encrypted copy are stored.
 */
export async function issueSignerToken(tx: Tx | Db, signerId: string): Promise<string> {
  const [row] = await tx
    .select({ expires_at: signatureEnvelopes.expires_at })
    .from(signatureSigners)
    .innerJoin(signatureEnvelopes, eq(signatureEnvelopes.id, signatureSigners.envelope_id))
    .where(eq(signatureSigners.id, signerId));
  if (!row) throw notFound('Signer');
  const raw = randomBytes(32).toString('base64url');
  await tx
    .update(signatureSigners)
    .set({ token_hash: hashSignerToken(raw), token_ciphertext: encryptSignerToken(raw), token_expires_at: row.expires_at })
    .where(eq(signatureSigners.id, signerId));
  return raw;
}

/** Every signer's link of the envelope stops working (the encrypted copy goes too: nothing is left to hand out). */
export async function killSignerTokens(tx: Tx | Db, envelopeId: string): Promise<void> {
  await tx
    .update(signatureSigners)
    .set({ token_hash: null, token_ciphertext: null })
    .where(eq(signatureSigners.envelope_id, envelopeId));
}
