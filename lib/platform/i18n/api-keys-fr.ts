/*
 * The API keys page in words: each scope and environment as the back-office names it (the form still submits the
 * codes, the API's). lib/platform/i18n/errors-fr.test.ts checks every scope of lib/platform/auth/scopes.ts has its words here.
 */

export const SCOPE_LABELS: Readonly<Record<string, string>> = {
  'contacts:read': 'Lecture des contacts',
  'contacts:write': 'Écriture des contacts',
  'invoice:read': 'Lecture des factures et devis',
  'invoice:write': 'Écriture des factures et devis',
  'signature:read': 'Lecture des signatures',
  'signature:write': 'Envoi en signature',
  'webhooks:read': 'Lecture des webhooks',
  'webhooks:write': 'Gestion des webhooks',
  'events:read': 'Lecture des événements',
};

export const ENV_LABELS: Readonly<Record<string, string>> = {
  live: 'Production',
  test: 'Test',
};

export const scopeLabel = (scope: string) => SCOPE_LABELS[scope] ?? scope;
export const envLabel = (env: string) => ENV_LABELS[env] ?? env;
