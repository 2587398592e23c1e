import { z } from 'zod';
import { ASSURANCE_LEVELS, ENVELOPE_STATUSES, ROUTING_MODES, SIGNATURE_SOURCE_KINDS, SIGNER_STATUSES, VERIFICATION_METHODS } from '@/db/schema/signature';
import { PageQuery } from '@/lib/platform/http';
import { pageOf, Timestamp, text } from '@/lib/platform/contract';
import { EnvelopeEvidence } from './evidence-state';
import { EmailAddress, EmailList, LabelList } from './schemas';

/** The version of the consent text the signing page shows (DESIGN §12); recorded on the envelope and at consent. */
export const CONSENT_TEXT_VERSION = '2026-11-26';

export const E164 = z
  .string({ error: 'must be a phone number in E.164 form (+33612345678)' })
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (+33612345678)');
export const SignerInput = z
  .strictObject({
    email: EmailAddress.meta({ description: 'Where the signing request is sent.' }),
    full_name: text(200).meta({ description: 'The signer’s name as shown in the proof, at most 200 characters.' }),
    phone: E164.nullish().meta({ description: 'E.164 phone (+33612345678) for the SMS code; required with sms_otp.' }),
    routing_order: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(100, 'at most 100').default(0).meta({ description: 'Order of signing from 0 (sequential routing; ignored when parallel); 0 when omitted.' }),
    verification_method: z.enum(VERIFICATION_METHODS, { error: 'must be one of email_otp, sms_otp, none' }).default('email_otp').meta({ description: 'How the signer proves it is them before signing: email_otp (default), sms_otp or none.' }),
  })
  .superRefine((s, ctx) => {
    if (s.verification_method === 'sms_otp' && !s.phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'required when verification_method is sms_otp' });
  });

/** The optional fields of PATCH (spec), shared by create: omitted or null clears. */
const envelopeFields = {
  signers: z.array(SignerInput, { error: 'must be an array of signers' }).min(1, 'required (at least one signer)').max(50, 'at most 50 signers').meta({ description: 'The signers, 1 to 50; replaces the whole set.' }),
  expires_at: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp' }).nullish().meta({ description: 'When the envelope and its signing links expire (RFC 3339); omitted or null: no expiry.' }),
  subject: text(200).meta({ description: 'Subject of the request e-mail, at most 200 characters; null: the default.' }),
  message: text(5000).meta({ description: 'Message quoted in the request e-mail, at most 5000 characters.' }),
  reply_to: EmailAddress.nullish().meta({ description: 'Reply-To address of the e-mails; null: none.' }),
  sender_name: text(200).meta({ description: 'From display name of the e-mails; null: the org’s name.' }),
  reminder_interval_hours: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').max(8760, 'at most 8760').nullish().meta({ description: 'Hours between automatic reminders to a signer who has not signed (1 to 8760); null: the default cadence.' }),
  reminder_max_count: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(20, 'at most 20').nullish().meta({ description: 'Most automatic reminders (0 to 20); omitted or null: a single one.' }),
};

export const EnvelopeCreate = z
  .strictObject({
    source_kind: z.enum(SIGNATURE_SOURCE_KINDS, { error: 'must be one of document, devis, facture' }).meta({ description: 'What is signed: document (an uploaded PDF), devis or facture (a billing document’s PDF).' }),
    source_document_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'The uploaded PDF (POST /v1/signature/documents), or the quote or invoice.' }),
    routing_mode: z.enum(ROUTING_MODES, { error: 'must be one of sequential, parallel' }).default('sequential').meta({ description: 'sequential (in routing_order, default) or parallel.' }),
    assurance_level: z.enum(ASSURANCE_LEVELS, { error: 'must be one of simple, advanced' }).default('simple').meta({ description: 'simple (default) or advanced (every signer verified by a code).' }),
    template_id: z.uuid({ error: 'must be a uuid' }).nullish().meta({ description: 'A template whose presets fill subject, message, labels and cc_recipients left out.' }),
    ...envelopeFields,
    // With a template, its presets fill what the request leaves out (in PATCH, omitted means empty: `.default([])`).
    cc_recipients: EmailList.optional().meta({ description: 'Addresses copied on the completion notice; omitted: the template’s, else none.' }),
    labels: LabelList.optional().meta({ description: 'Free labels to file the envelope; omitted: the template’s, else none.' }),
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
  contact_id: z.uuid({ error: 'must be a uuid' }).optional().meta({ description: 'Only envelopes with a signer who is this contact.' }),
  source_document_id: z.uuid({ error: 'must be a uuid' }).optional().meta({ description: 'Only envelopes of this document.' }),
  q: z.string().trim().min(1, 'must not be blank').max(200, 'at most 200 characters').optional().meta({ description: 'Case-insensitive substring of the subject or a signer’s e-mail or name.' }),
  status: z.enum(ENVELOPE_STATUSES, { error: 'must be one of draft, sent, in_progress, completed, declined, expired, cancelled' }).optional().meta({ description: 'Only envelopes in this status.' }),
  label: z.string().trim().min(1, 'must not be blank').max(100, 'at most 100 characters').optional().meta({ description: 'Only envelopes carrying this label.' }),
});
export type EnvelopeListQuery = z.output<typeof EnvelopeListQuery>;

export const Signer = z
  .object({
    id: z.uuid().meta({ description: 'The signer’s id.' }),
    email: z.string().meta({ description: 'Where the request was sent.' }),
    full_name: z.string().nullable().meta({ description: 'The signer’s name; null when not given.' }),
    phone: z.string().nullable().meta({ description: 'E.164 phone for the SMS code; null when none.' }),
    routing_order: z.number().int().meta({ description: 'Order of signing from 0 (sequential routing).' }),
    verification_method: z.enum(VERIFICATION_METHODS).meta({ description: 'email_otp, sms_otp or none.' }),
    status: z.enum(SIGNER_STATUSES).meta({ description: 'waiting, notified, opened, signed or declined.' }),
    otp_attempts: z.number().int().meta({ description: 'Failed code attempts on the current challenge.' }),
    consent_given_at: Timestamp.nullable().meta({ description: 'When the signer accepted to sign electronically; null before.' }),
    signed_at: Timestamp.nullable().meta({ description: 'When the signer signed; null before.' }),
    token_expires_at: Timestamp.nullable().meta({ description: 'When the signer’s link expires; null when it does not.' }),
    signed_ip: z.string().nullable().meta({ description: 'IP address the signature came from; null before signing.' }),
    created_at: Timestamp.meta({ description: 'When the signer was added.' }),
    updated_at: Timestamp.meta({ description: 'When the signer last changed.' }),
  })
  .meta({ id: 'SignatureSigner', description: 'One person asked to sign.' });

export const AuditEvent = z
  .object({
    id: z.uuid().meta({ description: 'The event’s id.' }),
    seq_index: z.number().int().meta({ description: 'Position in the envelope’s audit chain, from 0.' }),
    event_type: z.string().meta({ description: 'What happened (envelope.sent, signer.opened, signer.signed…).' }),
    event_data: z.record(z.string(), z.unknown()).meta({ description: 'Details of the event, per type.' }),
    signer_id: z.uuid().nullable().meta({ description: 'The signer concerned; null for an envelope event.' }),
    occurred_at: Timestamp.meta({ description: 'When it happened.' }),
    content_hash: z.string().meta({ description: 'SHA-256 hex of the canonical content (docs/signature.md).' }),
    prev_hash: z.string().nullable().meta({ description: 'content_hash of the previous event; null for the first.' }),
  })
  .meta({ id: 'SignatureAuditEvent', description: 'One link of the envelope’s audit chain.' });

const envelopeShape = {
  id: z.uuid().meta({ description: 'The envelope’s id.' }),
  status: z.enum(ENVELOPE_STATUSES).meta({ description: 'draft, sent, in_progress, completed, declined, expired or cancelled.' }),
  source_kind: z.enum(SIGNATURE_SOURCE_KINDS).meta({ description: 'What is signed: document, devis or facture.' }),
  source_document_id: z.uuid().nullable().meta({ description: 'The PDF or billing document signed; null once it is gone.' }),
  routing_mode: z.enum(ROUTING_MODES).meta({ description: 'sequential or parallel routing of the signers.' }),
  assurance_level: z.enum(ASSURANCE_LEVELS).meta({ description: 'simple or advanced.' }),
  consent_text_version: z.string().meta({ description: 'Version of the consent text the signing page shows.' }),
  subject: z.string().nullable().meta({ description: 'Subject of the request e-mail; null: the default.' }),
  message: z.string().nullable().meta({ description: 'Message quoted in the request e-mail; null when none.' }),
  sender_name: z.string().nullable().meta({ description: 'From display name; null: the org’s name.' }),
  reply_to: z.string().nullable().meta({ description: 'Reply-To address; null: none.' }),
  cc_recipients: z.array(z.string()).meta({ description: 'Copied on the completion notice; may be empty.' }),
  labels: z.array(z.string()).meta({ description: 'Free labels; may be empty.' }),
  expires_at: Timestamp.nullable().meta({ description: 'When the envelope and its links expire; null: never.' }),
  completed_at: Timestamp.nullable().meta({ description: 'When the last signer signed; null before.' }),
  document_hash: z.string().nullable().meta({ description: 'Lowercase hex SHA-256 of the frozen document, set at send; null for a draft.' }),
  has_proof: z.boolean().meta({ description: 'True when the proof bundle can be downloaded.' }),
  has_signed_document: z.boolean().meta({ description: 'True when the signed PDF with its fields can be downloaded (envelopes with positioned fields).' }),
  // An addition to the spec's shape (issue 33): has_proof alone cannot tell a seal under way from one that failed.
  evidence: EnvelopeEvidence.nullable().meta({
    description:
      'Where the signed PDF and the proof of a completed or declined envelope stand (the seal job makes them after the last signature or the decline); null for any other status.',
  }),
  reminder_count: z.number().int().meta({ description: 'Automatic reminders sent so far.' }),
  reminder_max_count: z.number().int().meta({ description: 'Most automatic reminders.' }),
  reminder_interval_hours: z.number().int().nullable().meta({ description: 'Hours between automatic reminders; null: the default cadence.' }),
  created_at: Timestamp.meta({ description: 'When the envelope was created.' }),
  updated_at: Timestamp.meta({ description: 'When it last changed.' }),
};

/** On list: without signers and chain. */
export const EnvelopeSummary = z.object(envelopeShape).meta({ id: 'SignatureEnvelopeSummary', description: 'An envelope: documents sent for signature to its signers.' });
/** On create and patch: with signers. */
export const EnvelopeWithSigners = z
  .object({ ...envelopeShape, signers: z.array(Signer).meta({ description: 'The signers, in routing order.' }) })
  .meta({ id: 'SignatureEnvelopeWithSigners' });
/** On get: with signers and the audit chain. */
export const Envelope = z
  .object({
    ...envelopeShape,
    signers: z.array(Signer).meta({ description: 'The signers, in routing order.' }),
    audit_chain: z.array(AuditEvent).meta({ description: 'Every event of the envelope, oldest first, each chained to the previous by its hash.' }),
  })
  .meta({ id: 'SignatureEnvelope' });
export const EnvelopeList = pageOf(EnvelopeSummary, 'SignatureEnvelopeList');
