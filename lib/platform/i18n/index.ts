// The back-office's French words (docs/conventions.md): error codes, field labels, validation texts, scopes, payment
// and webhook labels, the agreement of a phrase about a document. Plain tables and functions, safe in a client component.
export * from './api-keys-fr';
export * from './documents-fr';
export * from './errors-fr';
export * from './fields-fr';
export * from './payments-fr';
export * from './texts-fr';
export * from './webhooks-fr';
