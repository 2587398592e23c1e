import { z } from 'zod';
import { PathId, Timestamp, text } from '@/lib/openapi/schemas';
import { AuditEvent, SignerInput } from './envelope-schemas';
import { EmailAddress, EmailList, LabelList } from './schemas';

const Instant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp' });

/**
 * `PATCH /v1/signature/envelopes/{id}` (spec): the signer set is replaced; every other field omitted or null takes its
 * default (empty lists, no expiry, no subject…, the default reminder cadence, a single reminder).
 */
export const EnvelopePatch = z
  .strictObject({
    signers: z.array(SignerInput, { error: 'must be an array of signers' }).min(1, 'required (at least one signer)').max(50, 'at most 50 signers'),
    cc_recipients: EmailList.nullish(),
    labels: LabelList.nullish(),
    expires_at: Instant.nullish(),
    subject: text(200),
    message: text(5000),
    reply_to: EmailAddress.nullish(),
    sender_name: text(200),
    reminder_interval_hours: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').max(8760, 'at most 8760').nullish(),
    reminder_max_count: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(20, 'at most 20').nullish(),
  })
  .meta({ id: 'SignatureEnvelopePatch' });
export type EnvelopePatch = z.output<typeof EnvelopePatch>;

export const ApproverCreate = z.strictObject({ user_id: z.uuid({ error: 'must be a uuid' }) }).meta({ id: 'SignatureApproverCreate' });
export type ApproverCreate = z.output<typeof ApproverCreate>;

/** `approve`: the session's user by default; an API key (no user) must name the approver. */
export const ApproveInput = z
  .strictObject({ user_id: z.uuid({ error: 'must be a uuid' }).optional() })
  .optional()
  .meta({ id: 'SignatureApprove' });
export type ApproveInput = z.output<typeof ApproveInput>;

export const ReactivateInput = z
  .strictObject({ expires_at: Instant.nullish() })
  .optional()
  .meta({ id: 'SignatureReactivate' });
export type ReactivateInput = z.output<typeof ReactivateInput>;

export const Approver = z
  .object({
    id: z.uuid(),
    user_id: z.uuid().meta({ description: 'An org member.' }),
    approved_at: Timestamp.nullable().meta({ description: 'Null while pending.' }),
  })
  .meta({ id: 'SignatureApprover' });
export const ApproverList = z.object({ data: z.array(Approver) }).meta({ id: 'SignatureApproverList' });
export const Timeline = z.object({ data: z.array(AuditEvent) }).meta({ id: 'SignatureTimeline' });
export const SignerLink = z
  .object({
    url: z.string().meta({ description: 'The signing page, {APP_BASE_URL}/sign/{token}.' }),
    expires_at: Timestamp.nullable().meta({ description: 'When the link stops working (the envelope’s expiry).' }),
  })
  .meta({ id: 'SignatureSignerLink' });

export const ApproverParams = z.object({ id: PathId, approver_id: PathId });
export const SignerParams = z.object({ id: PathId, signer_id: PathId });
