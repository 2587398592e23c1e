import type { ENVELOPE_STATUSES, SIGNER_STATUSES } from '@/db/schema/signature';

/*
 * The French words of the signature module's states (the API's names stay English): the back-office pages
 * (app/(backoffice)/signature/labels.ts re-exports them), the proof report and the signature page of the signed PDF.
 * Browser-safe (type imports only), so client components take them through ./client.ts.
 */

type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];
type SignerStatus = (typeof SIGNER_STATUSES)[number];

export const ENVELOPE_STATUS_LABELS: Record<EnvelopeStatus, string> = {
  draft: 'brouillon',
  sent: 'envoyée',
  in_progress: 'en cours',
  completed: 'signée',
  declined: 'refusée',
  expired: 'expirée',
  cancelled: 'annulée',
};

export const SIGNER_STATUS_LABELS: Record<SignerStatus, string> = {
  waiting: 'en attente de son tour',
  notified: 'invité',
  opened: 'a ouvert',
  signed: 'a signé',
  declined: 'a refusé',
};

/** How a signature was given. */
export const SIGNATURE_KIND_LABELS: Record<'typed' | 'drawn', string> = { typed: 'saisie', drawn: 'dessinée' };

export const ROUTING_LABELS: Record<'sequential' | 'parallel', string> = { sequential: 'séquentiel', parallel: 'parallèle' };

export const ASSURANCE_LABELS: Record<'simple' | 'advanced', string> = { simple: 'simple', advanced: 'avancée' };

/** The audit chain's events in a sentence (DESIGN §12's tokens). */
export const AUDIT_EVENT_LABELS: Record<string, string> = {
  'envelope.created': 'Enveloppe créée',
  'envelope.sent': 'Enveloppe envoyée',
  'envelope.approved': 'Envoi approuvé',
  'envelope.reminded': 'Relance envoyée',
  'envelope.completed': 'Signature terminée',
  'envelope.declined': 'Enveloppe refusée',
  'envelope.expired': 'Enveloppe expirée',
  'envelope.cancelled': 'Enveloppe annulée',
  'envelope.reactivated': 'Enveloppe réactivée',
  'signer.notified': 'Invitation envoyée',
  'signer.opened': 'Document ouvert',
  'signer.consent_given': 'Consentement donné',
  'signer.code_sent': 'Code envoyé',
  'signer.code_verified': 'Code vérifié',
  'signer.code_failed': 'Code erroné',
  'signer.locked': 'Signataire bloqué (trop d’essais)',
  'signer.field_filled': 'Champ rempli',
  'signer.document_uploaded': 'Pièce déposée',
  'signer.signed': 'Signé',
  'signer.declined': 'Refusé',
};

/** Why the chain check failed (verifyAuditChain's reasons). */
export const CHAIN_BREAK_LABELS: Record<string, string> = {
  index_gap: 'un événement manque ou a été déplacé',
  prev_hash_mismatch: 'le lien avec l’événement précédent est rompu',
  content_hash_mismatch: 'le contenu d’un événement a été modifié',
};
