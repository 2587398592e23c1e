// What a client component may take of signature: the e-mail typo suggestion the signer and staff forms show.
export { EmailSuggestion, suggestEmail } from './email-suggestion';
