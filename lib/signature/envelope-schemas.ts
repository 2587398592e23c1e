import { z } from 'zod';
import { ASSURANCE_LEVELS, ENVELOPE_STATUSES, ROUTING_MODES, SIGNATURE_SOURCE_KINDS, SIGNER_STATUSES, VERIFICATION_METHODS } from '@/db/schema/signature';
import { PageQuery } from '@/lib/http/pagination';
import { pageOf, Timestamp, text } from '@/lib/openapi/schemas';
import { EmailAddress, EmailList, LabelList } from './schemas';

/** The version of the consent text the signing page shows (DESIGN §12); recorded on the envelope and at consent. */
export const CONSENT_TEXT_VERSION = '2026-11-26';

export const E164 = z
  .string({ error: 'must be a phone number in E.164 form (+33612345678)' })
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (+33612345678)');
export const SignerInput = z
  .strictObject({
    email: EmailAddress,
    full_name: text(200),
    phone: E164.nullish(),
    routing_order: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(100, 'at most 100').default(0),
    verification_method: z.enum(VERIFICATION_METHODS, { error: 'must be one of email_otp, sms_otp, none' }).default('email_otp'),
  })
  .superRefine((s, ctx) => {
    if (s.verification_method === 'sms_otp' && !s.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'required when verification_method is sms_otp' });
  });

/** The optional fields of PATCH (spec), shared by create: omitted or null clears. */
const envelopeFields = {
  signers: z.array(SignerInput, { error: 'must be an array of signers' }).min(1, 'required (at least one signer)').max(50, 'at most 50 signers'),
  expires_at: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp' }).nullish(),
  subject: text(200),
  message: text(5000),
  reply_to: EmailAddress.nullish(),
  sender_name: text(200),
  reminder_interval_hours: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').max(8760, 'at most 8760').nullish(),
  reminder_max_count: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(20, 'at most 20').nullish(),
};

export const EnvelopeCreate = z
  .strictObject({
    source_kind: z.enum(SIGNATURE_SOURCE_KINDS, { error: 'must be one of document, devis, facture' }),
    source_document_id: z.uuid({ error: 'must be a uuid' }),
    routing_mode: z.enum(ROUTING_MODES, { error: 'must be one of sequential, parallel' }).default('sequential'),
    assurance_level: z.enum(ASSURANCE_LEVELS, { error: 'must be one of simple, advanced' }).default('simple'),
    template_id: z.uuid({ error: 'must be a uuid' }).nullish(),
    ...envelopeFields,
    // With a template, its presets fill what the request leaves out (in PATCH, omitted means empty: `.default([])`).
    cc_recipients: EmailList.optional(),
    labels: LabelList.optional(),
  })
  .superRefine((e, ctx) => {
    if (e.assurance_level !== 'advanced') return;
    e.signers.forEach((s, i) => {
      if (s.verification_method === 'none') ctx.addIssue({ code: 'custom', path: ['signers', i, 'verification_method'], message: 'cannot be none at the advanced assurance level' });
    });
  })
  .meta({ id: 'SignatureEnvelopeCreate' });
export type EnvelopeCreate = z.output<typeof EnvelopeCreate>;

export const EnvelopeListQuery = z.strictObject({
  ...PageQuery.shape,
  contact_id: z.uuid({ error: 'must be a uuid' }).optional(),
  source_document_id: z.uuid({ error: 'must be a uuid' }).optional(),
  q: z.string().trim().min(1, 'must not be blank').max(200, 'at most 200 characters').optional(),
  status: z.enum(ENVELOPE_STATUSES, { error: 'must be one of draft, sent, in_progress, completed, declined, expired, cancelled' }).optional(),
  label: z.string().trim().min(1, 'must not be blank').max(100, 'at most 100 characters').optional(),
});
export type EnvelopeListQuery = z.output<typeof EnvelopeListQuery>;

export const Signer = z
  .object({
    id: z.uuid(),
    email: z.string(),
    full_name: z.string().nullable(),
    phone: z.string().nullable(),
    routing_order: z.number().int(),
    verification_method: z.enum(VERIFICATION_METHODS),
    status: z.enum(SIGNER_STATUSES),
    otp_attempts: z.number().int(),
    consent_given_at: Timestamp.nullable(),
    signed_at: Timestamp.nullable(),
    token_expires_at: Timestamp.nullable(),
    signed_ip: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'SignatureSigner' });

export const AuditEvent = z
  .object({
    id: z.uuid(),
    seq_index: z.number().int(),
    event_type: z.string(),
    event_data: z.record(z.string(), z.unknown()),
    signer_id: z.uuid().nullable(),
    occurred_at: Timestamp,
    content_hash: z.string().meta({ description: 'SHA-256 hex of the canonical content (docs/signature.md).' }),
    prev_hash: z.string().nullable(),
  })
  .meta({ id: 'SignatureAuditEvent' });

const envelopeShape = {
  id: z.uuid(),
  status: z.enum(ENVELOPE_STATUSES),
  source_kind: z.enum(SIGNATURE_SOURCE_KINDS),
  source_document_id: z.uuid().nullable(),
  routing_mode: z.enum(ROUTING_MODES),
  assurance_level: z.enum(ASSURANCE_LEVELS),
  consent_text_version: z.string(),
  subject: z.string().nullable(),
  message: z.string().nullable(),
  sender_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  cc_recipients: z.array(z.string()),
  labels: z.array(z.string()),
  expires_at: Timestamp.nullable(),
  completed_at: Timestamp.nullable(),
  document_hash: z.string().nullable(),
  has_proof: z.boolean(),
  has_signed_document: z.boolean(),
  reminder_count: z.number().int(),
  reminder_max_count: z.number().int(),
  reminder_interval_hours: z.number().int().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

/** On list: without signers and chain. */
export const EnvelopeSummary = z.object(envelopeShape).meta({ id: 'SignatureEnvelopeSummary' });
/** On create and patch: with signers. */
export const EnvelopeWithSigners = z.object({ ...envelopeShape, signers: z.array(Signer) }).meta({ id: 'SignatureEnvelopeWithSigners' });
/** On get: with signers and the audit chain. */
export const Envelope = z.object({ ...envelopeShape, signers: z.array(Signer), audit_chain: z.array(AuditEvent) }).meta({ id: 'SignatureEnvelope' });
export const EnvelopeList = pageOf(EnvelopeSummary, 'SignatureEnvelopeList');
