import { signatureEnvelopes } from '@/db/schema';
import { defineModule } from '@/lib/platform/manifest';
import { signatureEventSchemas } from './events';
import { evidenceOperations } from './evidence-operations';
import { bulkSendJob } from './bulk-job';
import { bulkOperations, formOperations } from './form-operations';
import { signatureLifecycleJobs } from './lifecycle-jobs';
import { lifecycleOperations } from './lifecycle-operations';
import { envelopeOperations, signatureOperations } from './operations';
import { composeTask, sealEnvelopeJob } from './seal-job';
import { inspectUploadTask } from './documents';
import { decodeDrawingTask } from './signing';
import { emailSuggestionOperation } from './suggestion-operations';

/**
 * Electronic signature (DESIGN §12, docs/signature.md). Its event tokens (`signature.*`) are declared with their
 * payload schemas (./events.ts) as they leave NOT_EMITTED_YET.
 */
export const manifest = defineModule({
  name: 'signature',
  operations: [...signatureOperations, ...envelopeOperations, ...lifecycleOperations, emailSuggestionOperation, ...formOperations, ...bulkOperations, ...evidenceOperations],
  jobs: [...signatureLifecycleJobs, sealEnvelopeJob, bulkSendJob],
  sandboxTasks: [inspectUploadTask, decodeDrawingTask, composeTask],
  // The payloads of its 7 `signature.*` tokens (./events.ts), each declared once it has left NOT_EMITTED_YET.
  events: signatureEventSchemas,
  contactReferences: [{ resource: 'signature_envelopes', table: signatureEnvelopes, column: signatureEnvelopes.contact_id }],
});

export { AUDIT_EVENT_TYPES, type AuditChainReport, type AuditEventInput, type AuditEventType, appendAuditEvent, auditEvents, publicAuditEvent, verifyAuditChain } from './audit';
export { uploadDocument } from './documents';
export { MAX_PDF_PAGES, MAX_TEXT_TAGS } from './upload-inspection';
export { envelopeEventObject, SignatureEnvelopeEvent, SignatureSignerEvent, signerEventObject } from './events';
export { envelopeMailContext, envelopePageUrl, queueSignerRequest } from './signature-emails';
export { decryptSignerToken, hashSignerToken, issueSignerToken, killSignerTokens, signerUrl } from './tokens';
export { addApprover, approveEnvelope, listApprovers, publicApprover, removeApprover } from './approvers';
export { expireDueEnvelopes } from './expiry';
export {
  cancelEnvelope,
  DEFAULT_EXPIRY_DAYS,
  envelopeTimeline,
  envelopeWithSigners,
  loadEnvelope,
  patchEnvelope,
  reactivateEnvelope,
  sendEnvelope,
  signerLink,
} from './lifecycle';
export { signatureExpiryJob, signatureLifecycleJobs, signatureRemindersJob } from './lifecycle-jobs';
export * from './lifecycle-operations';
export { ApproveInput, Approver, ApproverCreate, EnvelopePatch, ReactivateInput, SignerLink } from './lifecycle-schemas';
export { remindEnvelope, sendDueSignatureReminders } from './reminders';
export { currentTurn, DEFAULT_REMINDER_INTERVAL_HOURS, nextReminderAt, openTurns, type TurnContext } from './turns';
export { CONSENT_TEXT_VERSION, EnvelopeCreate, EnvelopeListQuery } from './envelope-schemas';
export { type Actor, actorOf, createEnvelope, deleteEnvelope, getEnvelope, listEnvelopes } from './envelopes';
export * from './operations';
export { EmailSuggestion, EmailSuggestionInput, suggestEmail } from './email-suggestion';
export { emailSuggestionOperation } from './suggestion-operations';
export { MAX_PDF_BYTES, SignatureDocument, SignatureTemplate, SignatureTemplateCreate } from './schemas';
export { createTemplate, deleteTemplate, getTemplate, listTemplates } from './templates';
export * from './form-operations';
export { BulkRecipient, BulkSend, BulkSendResult, MAX_BULK_RECIPIENTS, SignatureForm, SignatureFormCreate, SignatureFormListQuery } from './form-schemas';
export { createForm, deleteForm, formSubmissionCounts, formUrl, getForm, listForms, setFormActive } from './forms';
export { attachDocument, detachDocument, listAttachedDocuments } from './attachments';
export { loadSealingIdentity, SealingCertificateError, sealingIdentity, setSealingIdentity } from './certificate';
export { signatureCli } from './cli';
export { originalPdf, proofPdf, signedPdf } from './downloads';
export * from './evidence-operations';
export { envelopeForEvidence, FieldsPut, listFields, replaceFields, SignatureField } from './fields';
export { EVIDENCE_FILE_NAME } from './proof';
export { listRequestedDocuments, replaceRequestedDocuments, RequestedDocumentsPut } from './requested-documents';
export { SEAL_JOB, sealEnvelope, sealEnvelopeJob } from './seal-job';
export { EVIDENCE_ERROR_CODES, EVIDENCE_STATUSES, EnvelopeEvidence, type EvidenceErrorCode, type EvidenceStatus } from './evidence-state';
export { retrySeal } from './seal-retry';
export { checkSeal, verifyEnvelope } from './verify';
export { bulkSend, bulkSendBatch } from './bulk';
export { type BulkSendJobData, bulkSendJob } from './bulk-job';
export { FORM_LIMITS, FormStart, formDocument, loadPublicForm, maskEmail, pendingSubmission, startFormSubmission, type VisitorContext, verifyFormSubmission } from './form-submissions';
export { bulkBatchView, listBulkBatches } from './bulk-batches';
export { consentToSign, declineToSign, fillSignerField, getSignerState, requestSignerCode, verifySignerCode } from './signer-api';
export { MAX_UPLOAD_BODY_BYTES, SIGN_LIMIT_PREFIX, SignerFieldParams, SignerParams } from './signer-schemas';
export { DeclineBody, FieldValueBody, SignBody, UploadBody, VerifyCodeBody } from './signing';
export { openSession } from './signer-session';
export { outcomeIsSigned, SIGNED_DOWNLOAD_DAYS, type SignedDocumentState, type SignerLinkView, type SignerOutcome, signerLinkView, signerSignedPdf } from './signer-outcome';
export { SignerQuery } from './signer-schemas';
export { signEnvelope, signerDocument, uploadSignerDocument } from './signer-api';
export { formPageStatus, type PublicPageStatus, signerPageStatus } from './public-page-status';
