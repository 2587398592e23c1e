import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { signatureDocuments, signatureEnvelopes, signatureFormSubmissions, signatureForms, signatureSigners } from '@/db/schema';
import { queueEmail } from '@/lib/platform/email';
import { getStorage } from '@/lib/platform/storage';
import { ApiError, conflict, fromZodError, notFound } from '@/lib/platform/errors';
import { refuseControlCharacters, sharedLimiter } from '@/lib/platform/http';
import { getOrg } from '@/lib/platform/orgs';
import { appendAuditEvent } from './audit';
import { E164, EnvelopeCreate } from './envelope-schemas';
import { createEnvelope } from './envelopes';
import { sendEnvelope } from './lifecycle';
import { CODE_TTL_MINUTES, hashCode, MAX_CODE_FAILURES, maskDestination } from './otp';
import { EmailAddress } from './schemas';
import { decryptSignerToken } from './tokens';

/**
 * The public form's flow (issue 19, docs/signature.md « Forms »): a visitor gives name and e-mail (and phone for
 * sms_otp) → a 6-digit code by e-mail → the code creates the envelope around the form's document, sends it, and hands
 * back the signer's link. Nothing is created for an unknown or inactive form, a filled honeypot, or before the code.
 */

/** Per window: starts per client address and per form, code attempts per address (every instance shares them). */
export const FORM_LIMITS = { startsPerAddress: 10, startsPerForm: 200, checksPerAddress: 30, windowSeconds: 600 };

async function consume(prefix: string, points: number, key: string) {
  try {
    await sharedLimiter({ keyPrefix: prefix, points, duration: FORM_LIMITS.windowSeconds }).consume(key);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, 'rate_limited', `Too many attempts: retry in ${seconds} s.`, null, { 'Retry-After': String(seconds) });
  }
}

export interface VisitorContext {
  ip: string;
  userAgent: string | null;
  lang: 'fr' | 'en';
}

type FormRow = typeof signatureForms.$inferSelect;

/** What the public page shows; null for an unknown slug. An inactive form is returned (the page says it is closed). */
export async function loadPublicForm(db: Db, slug: string) {
  if (!/^[0-9A-Za-z]{22}$/.test(slug)) return null;
  const [row] = await db
    .select({ form: signatureForms, document: { id: signatureDocuments.id, name: signatureDocuments.name, page_count: signatureDocuments.page_count, storage_key: signatureDocuments.storage_key } })
    .from(signatureForms)
    .innerJoin(signatureDocuments, eq(signatureDocuments.id, signatureForms.source_document_id))
    .where(eq(signatureForms.slug, slug));
  if (!row) return null;
  const org = await getOrg(db, row.form.org_id);
  return { form: row.form, document: row.document, org_name: org.name };
}

/** "a•••@exemple.fr": where the code went, enough for the visitor to recognise it. */
export const maskEmail = (email: string) => maskDestination('email', email);

/** The PDF of an active form (its page's preview link); null otherwise. */
export async function formDocument(db: Db, slug: string) {
  const found = await loadPublicForm(db, slug);
  if (!found?.form.active) return null;
  const stored = await getStorage().get(found.document.storage_key);
  return stored ? { body: stored.body, size: stored.size, name: found.document.name } : null;
}

async function activeForm(db: Db, slug: string): Promise<FormRow> {
  const found = await loadPublicForm(db, slug);
  if (!found) throw notFound('Signature form');
  if (!found.form.active) throw conflict('form_inactive', 'This form no longer accepts signatures.');
  return found.form;
}

const Name = z.string({ error: 'required' }).trim().min(1, 'required').max(200, 'at most 200 characters');
export const FormStart = z.object({
  full_name: Name,
  email: EmailAddress,
  phone: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), E164.optional()),
  /** The honeypot: hidden from people (and from assistive technology); a robot that fills every field fills it. */
  website: z.string().optional(),
});

/**
 * Step 1: checks the limits, records the visitor (unverified) and e-mails them a code. Returns the submission id the
 * code page carries, or null for a robot (a filled honeypot): it sees the same page and nothing is created or sent.
 */
export async function startFormSubmission(db: Db, slug: string, fields: Record<string, unknown>, ctx: VisitorContext): Promise<{ id: string; sent_to: string } | null> {
  await consume('sign_form_start_address', FORM_LIMITS.startsPerAddress, ctx.ip);
  const form = await activeForm(db, slug);
  await consume('sign_form_start_form', FORM_LIMITS.startsPerForm, form.id);
  // The page's post is read by its route, not by a wrapper: its texts are refused here, all of them, as a server action's.
  refuseControlCharacters(fields);
  const parsed = FormStart.safeParse(fields);
  if (!parsed.success) throw fromZodError(parsed.error);
  const input = parsed.data;
  if (input.website) return null;
  if (form.verification_method === 'sms_otp' && !input.phone) throw new ApiError(422, 'validation_error', 'phone: required to sign by SMS code', 'phone');
  const org = await getOrg(db, form.org_id);
  return db.transaction(async (tx) => {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const [row] = await tx
      .insert(signatureFormSubmissions)
      .values({
        org_id: form.org_id,
        form_id: form.id,
        email: input.email,
        full_name: input.full_name,
        phone: input.phone ?? null,
        code_expires_at: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
        ip: ctx.ip,
        user_agent: ctx.userAgent,
      })
      .returning({ id: signatureFormSubmissions.id });
    // Keyed by the submission: a code is good for its own submission only.
    await tx.update(signatureFormSubmissions).set({ code_hash: hashCode(row!.id, code) }).where(eq(signatureFormSubmissions.id, row!.id));
    await queueEmail(tx as Db, form.org_id, {
      template: 'signature_code',
      to: [input.email],
      language: ctx.lang,
      data: { seller_name: org.name, recipient_name: input.full_name, document_title: form.title, code, valid_minutes: CODE_TTL_MINUTES },
    });
    return { id: row!.id, sent_to: maskDestination('email', input.email) };
  });
}

/** The code page's submission: its masked e-mail, or null when it is not this form's (or gone). */
export async function pendingSubmission(db: Db, slug: string, submissionId: string) {
  if (!z.uuid().safeParse(submissionId).success) return null;
  const [row] = await db
    .select({ email: signatureFormSubmissions.email, verified_at: signatureFormSubmissions.verified_at })
    .from(signatureFormSubmissions)
    .innerJoin(signatureForms, eq(signatureForms.id, signatureFormSubmissions.form_id))
    .where(and(eq(signatureForms.slug, slug), eq(signatureFormSubmissions.id, submissionId)));
  return row ? { sent_to: maskDestination('email', row.email), verified: row.verified_at !== null } : null;
}

const invalidCode = () => new ApiError(422, 'invalid_code', 'This code is not the one sent, or it expired.', 'code');

/**
 * Step 2: the right code (5 failures spend the submission) verifies the e-mail; then the envelope is created around the
 * form's document with the template's presets, sent, and the signer's link returned. A retry after a failure past the
 * creation (the send) finds the envelope through the submission and sends it again; the link comes from the stored
 * encrypted copy of the live token.
 */
export async function verifyFormSubmission(db: Db, slug: string, submissionId: string, code: string, ctx: VisitorContext): Promise<{ url: string }> {
  await consume('sign_form_check_address', FORM_LIMITS.checksPerAddress, ctx.ip);
  const form = await activeForm(db, slug);
  if (!z.uuid().safeParse(submissionId).success) throw invalidCode();
  const clean = code.replace(/\s/g, '');
  const envelopeId = await db.transaction(async (tx) => {
    const [sub] = await tx
      .select()
      .from(signatureFormSubmissions)
      .where(and(eq(signatureFormSubmissions.form_id, form.id), eq(signatureFormSubmissions.id, submissionId)))
      .for('update');
    if (!sub) throw invalidCode();
    if (sub.attempts >= MAX_CODE_FAILURES) throw new ApiError(423, 'signer_locked', 'Too many wrong codes: start again from the form.');
    const expected = Buffer.from(sub.code_hash ?? '', 'hex');
    const given = Buffer.from(/^\d{6}$/.test(clean) ? hashCode(sub.id, clean) : '', 'hex');
    const matches = expected.length > 0 && expected.length === given.length && timingSafeEqual(expected, given);
    if (!matches || (!sub.verified_at && sub.code_expires_at && sub.code_expires_at < new Date())) {
      await tx
        .update(signatureFormSubmissions)
        .set({ attempts: sql`${signatureFormSubmissions.attempts} + 1` })
        .where(eq(signatureFormSubmissions.id, sub.id));
      return { failed: true as const };
    }
    if (sub.envelope_id) return { id: sub.envelope_id };
    const verifiedAt = sub.verified_at ?? new Date();
    const envelope = await createEnvelope(
      tx as unknown as Db,
      form.org_id,
      EnvelopeCreate.parse({
        source_kind: 'document',
        source_document_id: form.source_document_id,
        template_id: form.template_id,
        ...(form.template_id ? {} : { subject: form.title }),
        signers: [{ email: sub.email, full_name: sub.full_name, phone: sub.phone, verification_method: form.verification_method }],
      }),
      { ip: ctx.ip, user_agent: ctx.userAgent },
    );
    await tx.update(signatureEnvelopes).set({ form_id: form.id }).where(eq(signatureEnvelopes.id, envelope.id));
    await tx.update(signatureFormSubmissions).set({ verified_at: verifiedAt, envelope_id: envelope.id }).where(eq(signatureFormSubmissions.id, sub.id));
    return { id: envelope.id };
  });
  if ('failed' in envelopeId) throw invalidCode();
  return { url: await sendAndLink(db, form, envelopeId.id, submissionId, ctx) };
}

/** Sends the form's envelope if still a draft, counts the form's e-mail code as the signer's, returns the link. */
async function sendAndLink(db: Db, form: FormRow, envelopeId: string, submissionId: string, ctx: VisitorContext): Promise<string> {
  const actor = { ip: ctx.ip, user_agent: ctx.userAgent };
  const [env] = await db.select({ status: signatureEnvelopes.status }).from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelopeId));
  if (env?.status === 'draft') {
    await sendEnvelope(db, form.org_id, envelopeId, actor).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.code === 'envelope_not_draft')) throw err;
    });
  }
  return db.transaction(async (tx) => {
    const [signer] = await tx.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).for('update');
    if (!signer) throw notFound('Signer');
    // The e-mail was just proved with the form's code: an e-mail signer is not asked for a second one.
    if (signer.verification_method === 'email_otp' && !signer.verified_at && signer.token_hash) {
      const now = new Date();
      await tx.update(signatureSigners).set({ verified_at: now }).where(eq(signatureSigners.id, signer.id));
      await appendAuditEvent(tx, envelopeId, {
        event_type: 'signer.code_verified',
        signer_id: signer.id,
        occurred_at: now,
        event_data: { ip: ctx.ip, user_agent: ctx.userAgent, channel: 'email', via: 'signature_form', form_id: form.id, submission_id: submissionId },
      });
    }
    const raw = decryptSignerToken(signer.token_ciphertext, signer.token_hash);
    if (!raw) throw new ApiError(410, 'link_expired', 'This signature is no longer open.');
    return `/sign/${raw}`;
  });
}
