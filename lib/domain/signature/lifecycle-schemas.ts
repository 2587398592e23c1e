import { z } from 'zod';
import { PathId, Timestamp, text } from '@/lib/platform/contract';
import { AuditEvent, SignerInput } from './envelope-schemas';
import { EmailAddress, EmailList, LabelList } from './schemas';

const Instant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp' });

/**
 * `PATCH /v1/signature/envelopes/{id}` (spec): the signer set is replaced; every other field omitted or null takes its
 * default (empty lists, no expiry, no subject…, the default reminder cadence, a single reminder).
 */
export const EnvelopePatch = z
  .strictObject({
    signers: z.array(SignerInput, { error: 'must be an array of signers' }).min(1, 'required (at least one signer)').max(50, 'at most 50 signers').meta({ description: 'The signers, 1 to 50; replaces the whole set.' }),
    cc_recipients: EmailList.nullish().meta({ description: 'Copied on the completion notice; omitted or null: none.' }),
    labels: LabelList.nullish().meta({ description: 'Free labels; omitted or null: none.' }),
    expires_at: Instant.nullish().meta({ description: 'When the envelope and its links expire (RFC 3339); omitted or null: no expiry.' }),
    subject: text(200).meta({ description: 'Subject of the request e-mail; omitted or null: the default.' }),
    message: text(5000).meta({ description: 'Message quoted in the request e-mail; omitted or null: none.' }),
    reply_to: EmailAddress.nullish().meta({ description: 'Reply-To address; omitted or null: none.' }),
    sender_name: text(200).meta({ description: 'From display name; omitted or null: the org’s name.' }),
    reminder_interval_hours: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').max(8760, 'at most 8760').nullish().meta({ description: 'Hours between automatic reminders (1 to 8760); omitted or null: the default cadence.' }),
    reminder_max_count: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(20, 'at most 20').nullish().meta({ description: 'Most automatic reminders (0 to 20); omitted or null: a single one.' }),
  })
  .meta({ id: 'SignatureEnvelopePatch' });
export type EnvelopePatch = z.output<typeof EnvelopePatch>;

export const ApproverCreate = z
  .strictObject({ user_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'The org member who must approve before the envelope is sent.' }) })
  .meta({ id: 'SignatureApproverCreate' });
export type ApproverCreate = z.output<typeof ApproverCreate>;

/** `approve`: the session's user by default; an API key (no user) must name the approver. */
export const ApproveInput = z
  .strictObject({ user_id: z.uuid({ error: 'must be a uuid' }).optional().meta({ description: 'The approver approving; omitted: the session’s user (an API key must name one).' }) })
  .optional()
  .meta({ id: 'SignatureApprove' });
export type ApproveInput = z.output<typeof ApproveInput>;

export const ReactivateInput = z
  .strictObject({ expires_at: Instant.nullish().meta({ description: 'New expiry of the envelope and its links (RFC 3339); omitted or null: none.' }) })
  .optional()
  .meta({ id: 'SignatureReactivate' });
export type ReactivateInput = z.output<typeof ReactivateInput>;

export const Approver = z
  .object({
    id: z.uuid().meta({ description: 'The approver’s id.' }),
    user_id: z.uuid().meta({ description: 'An org member.' }),
    approved_at: Timestamp.nullable().meta({ description: 'Null while pending.' }),
  })
  .meta({ id: 'SignatureApprover' });
export const ApproverList = z.object({ data: z.array(Approver).meta({ description: 'The envelope’s approvers.' }) }).meta({ id: 'SignatureApproverList' });
export const Timeline = z.object({ data: z.array(AuditEvent).meta({ description: 'The audit chain, oldest first.' }) }).meta({ id: 'SignatureTimeline' });
export const SignerLink = z
  .object({
    url: z.string().meta({ description: 'The signing page, {APP_BASE_URL}/sign/{token}.' }),
    expires_at: Timestamp.nullable().meta({ description: 'When the link stops working (the envelope’s expiry).' }),
  })
  .meta({ id: 'SignatureSignerLink' });

export const ApproverParams = z.object({ id: PathId, approver_id: PathId.meta({ description: 'The approver’s id.' }) });
export const SignerParams = z.object({ id: PathId, signer_id: PathId.meta({ description: 'The signer’s id.' }) });
