import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureOtpCodes, type signatureEnvelopes, signatureSigners } from '@/db/schema';
import { authSecret } from '@/lib/platform/config';
import { queueEmail } from '@/lib/platform/email';
import { ApiError, conflict } from '@/lib/platform/errors';
import { queueSms } from '@/lib/domain/sms';
import { appendAuditEvent } from './audit';
import { envelopeMailContext } from './signature-emails';
import type { TurnContext } from './turns';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

/** DESIGN §12: 6 digits, valid 10 minutes, 5 failures lock the signer. */
export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_FAILURES = 5;
/** A new code no sooner than this after the last one, and at most this many per hour (each is an e-mail or an SMS). */
export const CODE_RESEND_SECONDS = 60;
export const MAX_CODES_PER_HOUR = 5;

// Keyed: a copy of the table alone does not give the codes back by trying the 10^6 of them.
const codeKey = () => Buffer.from(hkdfSync('sha256', authSecret(), 'paraphe', 'signature-otp-code', 32));
export const hashCode = (signerId: string, code: string) => createHmac('sha256', codeKey()).update(`${signerId}:${code}`).digest('hex');

/** "a•••@exemple.fr", "+33•••••••44": enough for the signer to recognise where the code went (forms use it too). */
export function maskDestination(channel: 'email' | 'sms', to: string): string {
  if (channel === 'sms') return `${to.slice(0, 3)}${'•'.repeat(Math.max(0, to.length - 5))}${to.slice(-2)}`;
  const [local = '', domain = ''] = to.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

const rateLimited = (seconds: number, why: string) =>
  new ApiError(429, 'rate_limited', `${why}: retry in ${seconds} s.`, null, { 'Retry-After': String(Math.max(1, seconds)) });

export const signerLocked = () => new ApiError(423, 'signer_locked', 'Too many wrong codes: this signer is locked. Ask the sender for help.');

/**
 * `POST /api/sign/<token>/code`: a new 6-digit code (the previous ones stop working) by e-mail or SMS per the signer's
 * verification_method, `signer.code_sent` in the chain; in the caller's transaction, the envelope locked.
 */
export async function sendSignerCode(tx: Tx | Db, envelope: EnvelopeRow, signer: SignerRow, ctx: TurnContext) {
  if (signer.locked_at) throw signerLocked();
  if (signer.verification_method === 'none') throw conflict('verification_not_required', 'This signer signs without a one-time code.');
  if (signer.verified_at) throw conflict('already_verified', 'This signer is already verified.');
  const [last] = await tx
    .select({ created_at: signatureOtpCodes.created_at })
    .from(signatureOtpCodes)
    .where(eq(signatureOtpCodes.signer_id, signer.id))
    .orderBy(desc(signatureOtpCodes.id))
    .limit(1);
  const now = new Date();
  const since = last ? (now.getTime() - last.created_at.getTime()) / 1000 : Number.POSITIVE_INFINITY;
  if (since < CODE_RESEND_SECONDS) throw rateLimited(Math.ceil(CODE_RESEND_SECONDS - since), 'A code was just sent');
  const [{ n } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(signatureOtpCodes)
    .where(and(eq(signatureOtpCodes.signer_id, signer.id), gt(signatureOtpCodes.created_at, new Date(now.getTime() - 3_600_000))));
  if (n >= MAX_CODES_PER_HOUR) throw rateLimited(3600, `${MAX_CODES_PER_HOUR} codes were sent in the last hour`);

  const channel = signer.verification_method === 'sms_otp' ? ('sms' as const) : ('email' as const);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  // Only the newest code works.
  await tx
    .update(signatureOtpCodes)
    .set({ consumed_at: now })
    .where(and(eq(signatureOtpCodes.signer_id, signer.id), isNull(signatureOtpCodes.consumed_at)));
  await tx.insert(signatureOtpCodes).values({ org_id: signer.org_id, signer_id: signer.id, channel, code_hash: hashCode(signer.id, code), expires_at: expiresAt });
  const mail = await envelopeMailContext(tx, envelope);
  if (channel === 'sms') {
    const body =
      mail.language === 'en'
        ? `${mail.seller_name}: your signing code is ${code} (valid ${CODE_TTL_MINUTES} min). Never share it.`
        : `${mail.seller_name} : votre code de signature est ${code} (valable ${CODE_TTL_MINUTES} min). Ne le communiquez à personne.`;
    await queueSms(tx as Db, signer.org_id, { to: signer.phone ?? '', body, purpose: 'signature_code' });
  } else {
    await queueEmail(tx as Db, signer.org_id, {
      template: 'signature_code',
      to: [signer.email],
      language: mail.language,
      data: { seller_name: mail.seller_name, recipient_name: signer.full_name, document_title: mail.document_title, code, valid_minutes: CODE_TTL_MINUTES },
    });
  }
  const sentTo = maskDestination(channel, channel === 'sms' ? (signer.phone ?? '') : signer.email);
  await appendAuditEvent(tx, envelope.id, {
    event_type: 'signer.code_sent',
    signer_id: signer.id,
    occurred_at: now,
    event_data: { ip: ctx.ip, user_agent: ctx.userAgent, channel, sent_to: sentTo, expires_at: expiresAt.toISOString() },
  });
  return { channel, sent_to: sentTo, expires_at: expiresAt.toISOString() };
}

export type CodeCheck = { ok: true } | { ok: false; error: ApiError };

/**
 * `POST /api/sign/<token>/code/verify`: the newest live code. A failure is recorded (attempts, `signer.code_failed`,
 * the fifth `signer.locked`) and returned rather than thrown, so that the caller commits it before answering 422/423.
 */
export async function checkSignerCode(tx: Tx | Db, envelope: EnvelopeRow, signer: SignerRow, code: string, ctx: TurnContext): Promise<CodeCheck> {
  if (signer.locked_at) return { ok: false, error: signerLocked() };
  if (signer.verification_method === 'none' || signer.verified_at) return { ok: true };
  const now = new Date();
  const [live] = await tx
    .select()
    .from(signatureOtpCodes)
    .where(and(eq(signatureOtpCodes.signer_id, signer.id), isNull(signatureOtpCodes.consumed_at), gt(signatureOtpCodes.expires_at, now)))
    .orderBy(desc(signatureOtpCodes.id))
    .limit(1);
  // Nothing to guess against (none asked, expired, or used): refused without counting.
  if (!live) return { ok: false, error: new ApiError(422, 'invalid_code', 'No valid code: ask for a new one.', 'code') };
  const expected = Buffer.from(live.code_hash, 'hex');
  const given = Buffer.from(hashCode(signer.id, code.trim()), 'hex');
  const data = { ip: ctx.ip, user_agent: ctx.userAgent, channel: live.channel };
  if (timingSafeEqual(expected, given)) {
    await tx.update(signatureOtpCodes).set({ consumed_at: now }).where(eq(signatureOtpCodes.id, live.id));
    await tx.update(signatureSigners).set({ verified_at: now, otp_attempts: 0 }).where(eq(signatureSigners.id, signer.id));
    await appendAuditEvent(tx, envelope.id, { event_type: 'signer.code_verified', signer_id: signer.id, occurred_at: now, event_data: data });
    return { ok: true };
  }
  // Failures count on the signer across codes: asking for a new code does not buy five more guesses.
  const failures = signer.otp_attempts + 1;
  const locked = failures >= MAX_CODE_FAILURES;
  await tx.update(signatureOtpCodes).set({ attempts: live.attempts + 1 }).where(eq(signatureOtpCodes.id, live.id));
  await tx
    .update(signatureSigners)
    .set({ otp_attempts: failures, ...(locked ? { locked_at: now } : {}) })
    .where(eq(signatureSigners.id, signer.id));
  await appendAuditEvent(tx, envelope.id, { event_type: 'signer.code_failed', signer_id: signer.id, occurred_at: now, event_data: { ...data, failures } });
  if (!locked) return { ok: false, error: new ApiError(422, 'invalid_code', `Wrong code: ${MAX_CODE_FAILURES - failures} attempt(s) left.`, 'code') };
  await tx.update(signatureOtpCodes).set({ consumed_at: now }).where(eq(signatureOtpCodes.id, live.id));
  await appendAuditEvent(tx, envelope.id, { event_type: 'signer.locked', signer_id: signer.id, occurred_at: now, event_data: { ...data, failures } });
  return { ok: false, error: signerLocked() };
}
