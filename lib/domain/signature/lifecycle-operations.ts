import { IdParams, operation } from '@/lib/platform/contract';
import { EnvelopeWithSigners } from './envelope-schemas';
import { ApproveInput, Approver, ApproverCreate, ApproverList, ApproverParams, EnvelopePatch, ReactivateInput, SignerLink, SignerParams, Timeline } from './lifecycle-schemas';
import { NoQuery } from './schemas';

const tag = 'Signature';
const envelope = (description: string) => ({ 200: { description, schema: EnvelopeWithSigners } });

export const patchEnvelopeOperation = operation({
  method: 'patch',
  path: '/v1/signature/envelopes/{id}',
  tag,
  summary: 'Change a draft envelope',
  description:
    'Only a draft (409 `envelope_not_draft`). `signers` replaces the whole signer set (routing_order ignored in parallel routing; `sms_otp` needs an ' +
    'E.164 phone; `none` is refused at the advanced level). Every other field omitted or null takes its default: no copied recipients, no labels, ' +
    'no expiry, no subject, message, reply-to or sender name, the default reminder cadence (48 h), a single reminder. source_kind and ' +
    'source_document_id cannot change.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: EnvelopePatch,
  responses: envelope('The draft, with its new signers.'),
  errors: [[409, 'envelope_not_draft']],
});

export const addApproverOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/approvers',
  tag,
  summary: 'Add an approver to a draft envelope',
  description:
    'The user must be a member of the organisation (422 on user_id). The envelope cannot be sent before every approver approved. 409 ' +
    '`signature_conflict` when the envelope is not a draft or the user is already an approver. The approver is e-mailed a link to the envelope.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: ApproverCreate,
  responses: { 201: { description: 'The approver, pending.', schema: Approver } },
  errors: [[409, 'signature_conflict']],
});

export const listApproversOperation = operation({
  method: 'get',
  path: '/v1/signature/envelopes/{id}/approvers',
  tag,
  summary: 'List the approvers of an envelope',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The approvers, in the order they were added.', schema: ApproverList } },
});

export const removeApproverOperation = operation({
  method: 'delete',
  path: '/v1/signature/envelopes/{id}/approvers/{approver_id}',
  tag,
  summary: 'Remove an approver from a draft envelope',
  description: '409 `signature_conflict` when the envelope is not a draft.',
  scope: 'signature:write',
  params: ApproverParams,
  query: NoQuery,
  responses: { 204: { description: 'Removed.' } },
  errors: [[409, 'signature_conflict']],
});

export const approveEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/approve',
  tag,
  summary: 'Approve a draft envelope',
  description:
    '`user_id` defaults to the signed-in staff member (who approves only for themselves: 403 otherwise); an API key must name the approver. ' +
    '422 on user_id when that user is not an approver of the envelope; 409 `envelope_not_draft` once sent. Approving again answers the approval ' +
    'as it is. envelope.approved is appended to the audit chain.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: ApproveInput,
  responses: { 200: { description: 'The approver, approved.', schema: Approver } },
  errors: [[409, 'envelope_not_draft']],
});

export const sendEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/send',
  tag,
  summary: 'Send a draft envelope to its signers',
  description:
    'The document is frozen (a quote or invoice: its rendered PDF) and document_hash is its SHA-256. expires_at defaults to 30 days from now. ' +
    'The first signers (sequential: the lowest routing_order, equal orders together; parallel: all) receive their link by e-mail. ' +
    '409 `approval_pending` while an approver has not approved, 409 `envelope_not_draft` once sent, 409 `source_not_signable` when the quote or ' +
    'invoice was since rejected, expired or cancelled, 422 without signers or with a past expires_at.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: envelope('The envelope, sent.'),
  errors: [
    [409, 'envelope_not_draft'],
    [409, 'approval_pending'],
    [409, 'source_not_signable'],
  ],
});

export const cancelEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/cancel',
  tag,
  summary: 'Cancel a sent envelope',
  description: 'Sent or in progress → cancelled; every signing link stops working. 409 `envelope_not_active` otherwise.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: envelope('The envelope, cancelled.'),
  errors: [[409, 'envelope_not_active']],
});

export const remindEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/remind',
  tag,
  summary: 'Remind the signers whose turn it is',
  description:
    'The reminder e-mail, with their link, to each signer whose turn it is and who has not signed; reminder_count increases. 409 ' +
    '`envelope_not_active` unless the envelope is sent or in progress.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  responses: envelope('The envelope.'),
  errors: [[409, 'envelope_not_active']],
});

export const reactivateEnvelopeOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/reactivate',
  tag,
  summary: 'Reactivate an expired envelope',
  description:
    'Expired → sent until expires_at (default 30 days from now; 422 when past). The signers whose turn it was receive a fresh link. 409 ' +
    '`envelope_not_expired` otherwise.',
  scope: 'signature:write',
  params: IdParams,
  query: NoQuery,
  body: ReactivateInput,
  responses: envelope('The envelope, sent again.'),
  errors: [[409, 'envelope_not_expired']],
});

export const envelopeTimelineOperation = operation({
  method: 'get',
  path: '/v1/signature/envelopes/{id}/timeline',
  tag,
  summary: 'The audit events of an envelope, oldest first',
  scope: 'signature:read',
  params: IdParams,
  query: NoQuery,
  responses: { 200: { description: 'The audit chain.', schema: Timeline } },
});

export const signerLinkOperation = operation({
  method: 'post',
  path: '/v1/signature/envelopes/{id}/signers/{signer_id}/link',
  tag,
  summary: 'The signing link of a signer',
  description:
    'For an embedded or custom delivery: the link already e-mailed to the signer (its token is not replaced), with its expiry. 409 ' +
    '`signer_link_unavailable` when the signer has no live link (not their turn yet, already signed or declined, or the envelope closed or expired).',
  scope: 'signature:write',
  params: SignerParams,
  query: NoQuery,
  responses: { 200: { description: 'The link.', schema: SignerLink } },
  errors: [[409, 'signer_link_unavailable']],
});

export const lifecycleOperations = [
  patchEnvelopeOperation,
  addApproverOperation,
  listApproversOperation,
  removeApproverOperation,
  approveEnvelopeOperation,
  sendEnvelopeOperation,
  cancelEnvelopeOperation,
  remindEnvelopeOperation,
  reactivateEnvelopeOperation,
  envelopeTimelineOperation,
  signerLinkOperation,
];
