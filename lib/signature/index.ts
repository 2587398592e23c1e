import { signatureEnvelopes } from '@/db/schema';
import { defineModule } from '@/lib/manifest';
import { envelopeOperations, signatureOperations } from './operations';
import { emailSuggestionOperation } from './suggestion-operations';

/**
 * Electronic signature (DESIGN §12, docs/signature.md). Its event tokens (`signature.*`) stay in NOT_EMITTED_YET
 * until the envelope lifecycle emits them: it declares no payload schema yet.
 */
export const manifest = defineModule({
  name: 'signature',
  operations: [...signatureOperations, ...envelopeOperations, emailSuggestionOperation],
  contactReferences: [{ resource: 'signature_envelopes', table: signatureEnvelopes, column: signatureEnvelopes.contact_id }],
});

export { AUDIT_EVENT_TYPES, type AuditChainReport, type AuditEventInput, type AuditEventType, appendAuditEvent, auditEvents, publicAuditEvent, verifyAuditChain } from './audit';
export { inspectPdf, uploadDocument } from './documents';
export { CONSENT_TEXT_VERSION, EnvelopeCreate, EnvelopeListQuery } from './envelope-schemas';
export { type Actor, actorOf, createEnvelope, deleteEnvelope, getEnvelope, listEnvelopes } from './envelopes';
export * from './operations';
export { EmailSuggestion, EmailSuggestionInput, suggestEmail } from './email-suggestion';
export { emailSuggestionOperation } from './suggestion-operations';
export { MAX_PDF_BYTES, SignatureDocument, SignatureTemplate, SignatureTemplateCreate } from './schemas';
export { createTemplate, deleteTemplate, getTemplate, listTemplates } from './templates';
