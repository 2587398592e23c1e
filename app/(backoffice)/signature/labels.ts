import type { ENVELOPE_STATUSES, FIELD_TYPES, SIGNER_STATUSES, VERIFICATION_METHODS } from '@/db/schema/signature';
import type { EvidenceErrorCode, EvidenceStatus } from '@/lib/domain/signature';

// The states' words live with the module (the proof PDF says them too).
export { AUDIT_EVENT_LABELS, CHAIN_BREAK_LABELS, ENVELOPE_STATUS_LABELS, SIGNER_STATUS_LABELS } from '@/lib/domain/signature/client';

/** French labels of the signature pages; the API's names stay English. Browser-safe (type imports only). */

export type EnvelopeStatus = (typeof ENVELOPE_STATUSES)[number];
export type SignerStatus = (typeof SIGNER_STATUSES)[number];
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
export type FieldType = (typeof FIELD_TYPES)[number];

/** The list's status chips, in the lifecycle's order. */
export const ENVELOPE_STATUS_ORDER: EnvelopeStatus[] = ['draft', 'sent', 'in_progress', 'completed', 'declined', 'expired', 'cancelled'];
export const ENVELOPE_STATUS_CHIPS: Record<EnvelopeStatus, string> = {
  draft: 'chip-grey',
  sent: 'chip-blue',
  in_progress: 'chip-blue',
  completed: 'chip-green',
  declined: 'chip-red',
  expired: 'chip-amber',
  cancelled: 'chip-grey',
};

export const SIGNER_STATUS_CHIPS: Record<SignerStatus, string> = {
  waiting: 'chip-grey',
  notified: 'chip-blue',
  opened: 'chip-blue',
  signed: 'chip-green',
  declined: 'chip-red',
};

export const VERIFICATION_LABELS: Record<VerificationMethod, string> = {
  email_otp: 'Code par e-mail',
  sms_otp: 'Code par SMS',
  none: 'Aucune vérification',
};

export const SOURCE_LABELS: Record<'document' | 'devis' | 'facture', string> = { document: 'PDF importé', devis: 'Devis', facture: 'Facture' };

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  signature: 'Signature',
  initials: 'Paraphe',
  date: 'Date',
  text: 'Texte',
  checkbox: 'Case à cocher',
  name: 'Nom',
  email: 'E-mail',
};

/** A new field's size, in fractions of the page (a signature is wider and taller than a date). */
export const FIELD_DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 0.25, height: 0.07 },
  initials: { width: 0.1, height: 0.05 },
  date: { width: 0.15, height: 0.035 },
  text: { width: 0.25, height: 0.035 },
  checkbox: { width: 0.03, height: 0.022 },
  name: { width: 0.25, height: 0.035 },
  email: { width: 0.25, height: 0.035 },
};



/** Where the signed PDF and proof stand (the envelope's `evidence`, issue 33). */
export const EVIDENCE_STATUS_LABELS: Record<EvidenceStatus, string> = {
  pending: 'scellement en cours',
  sealed: 'scellé',
  failed: 'scellement échoué',
};
export const EVIDENCE_STATUS_CHIPS: Record<EvidenceStatus, string> = { pending: 'chip-blue', sealed: 'chip-green', failed: 'chip-red' };

/** The cause of a failed seal, and what to fix before « Relancer le scellement ». */
export const EVIDENCE_ERROR_LABELS: Record<EvidenceErrorCode, string> = {
  original_missing: 'Le PDF original n’est plus dans le stockage : il faut l’y remettre.',
  original_altered: 'Le PDF original stocké ne correspond plus à l’empreinte enregistrée à l’envoi : il faut remettre le fichier envoyé aux signataires.',
  original_unreadable: 'Le PDF original ne peut pas être lu.',
  signature_image_invalid: 'L’image d’une signature dessinée est illisible.',
  certificate_unavailable: 'Le certificat de scellement de l’instance est indisponible ou expiré.',
  internal_error: 'Erreur technique (stockage ou service). Si elle persiste, contactez le support.',
};

/** The list's filters, read from its URL. */
export const ENVELOPE_LIST_FILTERS = ['status', 'label', 'q', 'contact_id', 'cursor'] as const;

/** Which actions an envelope in this status offers (the lifecycle of DESIGN §12). */
export function envelopeActions(status: EnvelopeStatus) {
  return {
    edit: status === 'draft',
    send: status === 'draft',
    delete: status === 'draft',
    remind: status === 'sent' || status === 'in_progress',
    cancel: status === 'sent' || status === 'in_progress',
    reactivate: status === 'expired',
    links: status === 'sent' || status === 'in_progress',
  };
}

/** A signer in a line: « Camille Martin <camille@exemple.fr> », or the e-mail alone. */
export const signerName = (s: { full_name: string | null; email: string }) => (s.full_name ? `${s.full_name} <${s.email}>` : s.email);

/** An envelope's title on its pages: its subject, else a neutral one. */
export const envelopeTitle = (e: { subject: string | null }) => e.subject ?? 'Enveloppe sans objet';
