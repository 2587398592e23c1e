// What a client component may take of signature: the e-mail typo suggestion the signer and staff forms show.
export { EmailSuggestion, suggestEmail } from './email-suggestion';
// The French words of envelope, signer and audit states (the back-office's labels).
export { AUDIT_EVENT_LABELS, CHAIN_BREAK_LABELS, ENVELOPE_STATUS_LABELS, SIGNER_STATUS_LABELS } from './labels';
