import { frenchLabel } from './fields-fr';
import { frenchText } from './texts-fr';

/*
 * The back-office's French for what the API refuses: one catalogue, keyed by error code (here), by field
 * (fields-fr.ts) and by the English text of a field's message (texts-fr.ts). The API answers in English, unchanged;
 * lib/platform/next/action.ts words every refusal of a back-office action with this, and the import wizard its row errors.
 * lib/platform/i18n/errors-fr.test.ts fails when a code thrown in lib/, a field of an input schema or a message has no French.
 * No imports but its siblings: client components read it too.
 */

/** By error code: what the staff member reads above the form when the refusal names no field. */
export const CODE_MESSAGES: Readonly<Record<string, string>> = {
  // Requests
  invalid_json: 'La requête est illisible.',
  busy: 'Le serveur lit déjà beaucoup de fichiers : réessayez dans quelques secondes.',
  unauthorized: 'Identification requise : reconnectez-vous.',
  forbidden: 'Vous n’avez pas le droit de faire cela.',
  no_active_org: 'Aucune organisation active : choisissez-en une.',
  already_member: 'Cette adresse est déjà membre de l’organisation.',
  invalid_credentials: 'Mot de passe incorrect pour ce compte.',
  not_found: 'Introuvable : l’élément a peut-être été supprimé.',
  method_not_allowed: 'Cette opération n’est pas possible ici.',
  payload_too_large: 'Envoi trop volumineux.',
  unsupported_media_type: 'Format d’envoi non pris en charge.',
  cross_origin_request: 'Requête refusée : elle ne vient pas du back-office.',
  credentials_in_query: 'Une clé ne se transmet jamais dans l’adresse.',
  batch_too_large: 'Trop de lignes à la fois : au plus 1 000 par envoi.',
  validation_error: 'Un champ est invalide : corrigez-le.',
  invalid_cursor: 'Cette page de la liste n’existe plus : revenez au début.',
  rate_limited: 'Trop de demandes : patientez quelques secondes.',
  idempotency_key_reused: 'Cette demande a déjà été faite avec d’autres données.',
  idempotency_in_progress: 'La même demande est déjà en cours : patientez.',
  internal_error: 'Une erreur inattendue s’est produite. Réessayez.',
  // Contacts and organisation
  contact_deleted: 'Ce client est supprimé : restaurez-le d’abord.',
  contact_erased: 'Ce client a été effacé (RGPD).',
  contact_merged: 'Ce client a été fusionné avec un autre.',
  user_exists: 'Un compte existe déjà avec cet e-mail.',
  // Documents
  document_finalized: 'Ce document est finalisé : il ne peut plus être modifié (faites un avoir).',
  already_finalized: 'Ce document est déjà finalisé.',
  not_finalized: 'Finalisez d’abord ce brouillon.',
  invalid_transition: 'Cette action n’est pas possible dans l’état actuel du document.',
  not_cancellable: 'Ce document ne peut pas être annulé.',
  not_convertible: 'Ce devis ne peut pas être converti en facture.',
  not_creditable: 'Seule une facture ou une facture d’acompte peut faire l’objet d’un avoir.',
  not_duplicable: 'Ce document ne peut pas être dupliqué.',
  credit_note_exists: 'Cette facture a déjà un avoir.',
  numbers_skipped: 'La numérotation a un trou : vérifiez la chaîne d’intégrité.',
  chain_broken: 'La chaîne d’intégrité est rompue : contactez le support.',
  pdf_not_ready: 'Le PDF est en cours de génération : réessayez dans un instant.',
  einvoice_invalid: 'La facture électronique ne passe pas les contrôles Factur-X.',
  // Payments
  not_payable: 'Aucun paiement ne peut être enregistré sur ce document.',
  not_refundable: 'Rien n’est dû au client sur cette facture : il n’y a rien à rembourser.',
  payments_account_required: 'Connectez d’abord un compte de paiement en ligne.',
  payments_account_not_ready: 'Le compte de paiement en ligne n’est pas encore prêt.',
  payments_disabled: 'Le paiement en ligne est désactivé.',
  payments_account_not_found: 'Le compte de paiement en ligne est introuvable : reconnectez-le.',
  payments_account_taken: 'Ce compte de paiement est déjà relié à une autre organisation.',
  payments_provider_error: 'Le service de paiement en ligne n’a pas répondu : réessayez.',
  payment_not_yet_known: 'Ce paiement en ligne n’est pas encore enregistré : le service de paiement réessaiera.',
  no_active_mandate: 'Ce client n’a pas de mandat de prélèvement SEPA actif : envoyez-lui d’abord un lien de mise en place du mandat.',
  no_online_payment: 'Cette facture n’a pas été payée en ligne : enregistrez le remboursement fait par virement, chèque ou espèces.',
  payment_processing: 'Un prélèvement de ce document est déjà en cours : attendez son résultat avant d’en lancer un autre.',
  // Sending and reminders
  no_recipient: 'Aucune adresse e-mail : le client n’en a pas, indiquez-en une.',
  not_remindable: 'Ce document ne peut pas être relancé.',
  ladder_exists: 'Ce document a déjà son calendrier de relances : ajoutez une relance manuelle.',
  reminder_not_pending: 'Cette relance est déjà partie ou annulée.',
  reminder_opt_out: 'Ce client ne souhaite pas être relancé.',
  too_many_reminders: 'Trop de relances prévues pour ce document.',
  webhook_not_configured: 'Le webhook n’est pas configuré.',
  invalid_signature: 'Signature du webhook invalide.',
  invalid_payload: 'Contenu du webhook illisible.',
  // Webhooks
  delivery_in_progress: 'Un envoi de ce webhook est en cours : réessayez dans un instant.',
  // E-invoicing
  einvoicing_not_configured: 'La facturation électronique n’est pas configurée : renseignez d’abord la plateforme agréée (Réglages → Facturation électronique).',
  einvoicing_secret_unreadable: 'Le secret de la plateforme agréée ne peut plus être déchiffré (clé changée) : saisissez-le à nouveau.',
  pa_unavailable: 'La plateforme agréée ne répond pas : réessayez dans quelques minutes.',
  pa_refused: 'La plateforme agréée a refusé la demande.',
  transmission_not_failed: 'Cette transmission n’a pas échoué (en attente, en cours ou transmise) : il n’y a rien à relancer.',
  einvoicing_not_applicable: 'Seules les factures, factures d’acompte et avoirs finalisés adressés à une entreprise française (SIREN ou SIRET) passent par la plateforme agréée.',
  enrollment_refused: 'La plateforme agréée a refusé l’inscription à l’annuaire.',
  inbound_already_answered: 'Cette facture reçue a déjà été approuvée ou refusée : la réponse envoyée à la plateforme ne change plus.',
  inbound_pdf_unavailable: 'Cette facture reçue n’a pas de PDF lisible : son fichier XML n’a pas pu être lu.',
  // Signature
  envelope_not_draft: 'Cette enveloppe est déjà envoyée.',
  envelope_not_active: 'Seule une enveloppe envoyée ou en cours de signature peut être annulée ou relancée.',
  source_not_signable: 'Ce devis ou cette facture ne peut plus être signé : il a été refusé, annulé ou il a expiré.',
  envelope_not_expired: 'Seule une enveloppe expirée peut être réactivée.',
  approval_pending: 'Cette enveloppe attend encore une approbation : elle ne peut pas être envoyée avant.',
  signer_link_unavailable: 'Ce signataire n’a pas de lien valide : ce n’est pas encore son tour, il a terminé, ou l’enveloppe est close ou expirée.',
  signature_conflict: 'La signature a changé entre-temps : rechargez la page.',
  invalid_code: 'Code invalide.',
  invalid_pdf: 'Ce fichier n’est pas un PDF lisible.',
  pdf_encrypted: 'Ce PDF est protégé par un mot de passe : envoyez-en une copie non protégée.',
  pdf_too_complex: `Ce PDF est trop lourd à lire : trop de pages (500 au plus), de balises, ou d’une structure trop complexe. Envoyez-en une version allégée.`,
  invalid_text_tag: 'Une balise {{…}} de ce PDF est mal écrite : corrigez-la (type:signataire[:libellé][:required]) puis envoyez-le à nouveau.',
  form_inactive: 'Ce formulaire de signature n’accepte plus de signatures.',
  invalid_multipart: 'Le fichier envoyé est illisible : réessayez.',
  signed_document_unavailable: 'Le document signé n’est pas disponible : l’enveloppe n’est pas terminée, son scellement est en cours, ou elle n’a aucun champ placé.',
  proof_unavailable: 'Le rapport de preuve n’est disponible qu’une fois l’enveloppe terminée ou refusée.',
  evidence_pending: 'Le document signé et le dossier de preuve sont en cours de scellement : réessayez dans un instant.',
  evidence_failed: 'Le scellement de cette enveloppe a échoué : corrigez la cause indiquée puis relancez le scellement.',
  evidence_not_failed: 'Il n’y a pas de scellement à relancer : l’enveloppe n’est pas terminée, elle est déjà scellée, ou son scellement est en cours.',
  verification_failed: 'La vérification de l’enveloppe a échoué : sa chaîne d’audit, son document ou son sceau ne correspond plus.',
  // The signer's API (/api/sign/<token>/…)
  link_expired: 'Ce lien de signature ne fonctionne plus : la demande est terminée, annulée ou expirée.',
  signer_locked: 'Trop de codes erronés : la signature est bloquée. Contactez l’expéditeur du document.',
  verification_not_required: 'Aucun code n’est demandé pour cette signature.',
  already_verified: 'Votre identité est déjà confirmée.',
  not_your_turn: 'Ce n’est pas encore votre tour de signer : vous recevrez un e-mail quand il viendra.',
  consent_required: 'Acceptez d’abord de signer électroniquement.',
  verification_required: 'Confirmez d’abord votre identité avec le code reçu.',
  fields_incomplete: 'Remplissez d’abord les champs obligatoires.',
  uploads_incomplete: 'Joignez d’abord les documents demandés.',
};

/** Whether a code has its French (the catalogue's test asks it of every code thrown in lib/). */
export const hasFrenchCode = (code: string) => code in CODE_MESSAGES;

/** What a zod issue says, as much of it as the catalogue reads (kept structural: no zod import). */
export interface IssueLike {
  code: string;
  message: string;
  input?: unknown;
  origin?: string;
  format?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
}

/** The French of a zod issue by its kind, for a schema that left zod's own (English) message. */
function frenchIssueKind(issue: IssueLike): string {
  const size = (bound: number | bigint | undefined) => String(bound ?? '');
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null || issue.input === '' ? 'Ce champ est obligatoire.' : 'Valeur invalide.';
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'Ce champ est obligatoire.' : `Au moins ${size(issue.minimum)} caractères.`;
      if (issue.origin === 'array' || issue.origin === 'set') return Number(issue.minimum) <= 1 ? 'Choisissez au moins un élément.' : `Au moins ${size(issue.minimum)} éléments.`;
      return `Au moins ${size(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'string') return `Au plus ${size(issue.maximum)} caractères.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Au plus ${size(issue.maximum)} éléments.`;
      return `Au plus ${size(issue.maximum)}.`;
    case 'invalid_format':
      if (issue.format === 'email') return 'Adresse e-mail invalide (ex. nom@exemple.fr).';
      if (issue.format === 'uuid' || issue.format === 'guid') return 'Choisissez un élément existant.';
      if (issue.format === 'date' || issue.format === 'datetime') return 'Date invalide.';
      return 'Format invalide.';
    case 'invalid_value':
    case 'invalid_union':
      return 'Choisissez une valeur de la liste.';
    case 'unrecognized_keys':
      return 'Ce champ n’existe pas.';
    case 'not_multiple_of':
      return 'Trop de décimales.';
    default:
      return 'Valeur invalide : vérifiez ce champ.';
  }
}

/** What any error on these fields means, whatever its English says: the staff member picks from a list. */
const FIELD_MESSAGES: Readonly<Record<string, string>> = {
  contact_id: 'Choisissez un client existant.',
  country: 'Choisissez un pays de la liste.',
  product_id: 'Choisissez un produit existant.',
};

const leafOf = (field: string | null) => field?.split('.').filter((p) => !/^\d+$/.test(p)).at(-1) ?? '';

/** The message without its `field: ` prefix, as the API writes it ("siret: SIRET must be 14 digits"). */
const withoutPrefix = (field: string | null, message: string) =>
  field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message.replace(/^[a-z_][\w.]*: /, '');

/**
 * The French of a field's error (shown beside its input): the field's own message when any error there means one
 * thing, else the message's French, else the issue's kind, else a plain French request to check the field.
 */
export function frenchFieldMessage(field: string | null, message: string, issue?: IssueLike): string {
  return (
    FIELD_MESSAGES[leafOf(field)] ??
    frenchText(withoutPrefix(field, message)) ??
    (issue ? frenchIssueKind(issue) : null) ??
    'Valeur invalide : vérifiez ce champ.'
  );
}

/** "Client : choisissez un client existant." (the label, then the message), for above a form and one-line displays. */
export function frenchFieldLine(field: string, frenchMessage: string): string {
  const label = frenchLabel(field);
  if (!label) return frenchMessage;
  const lower = /^\p{Lu}\p{Ll}/u.test(frenchMessage) ? frenchMessage.charAt(0).toLowerCase() + frenchMessage.slice(1) : frenchMessage;
  return `${label} : ${lower}`;
}

/** What a refusal of the API ({code, message, field}) says in French: beside its field, and in one line. */
export function frenchRefusal(error: { code: string; message: string; field?: string | null }): { field: string | null; line: string } {
  const byCode = CODE_MESSAGES[error.code];
  if (!error.field) return { field: null, line: byCode ?? CODE_MESSAGES.validation_error! };
  const field = error.code === 'validation_error' || !byCode ? frenchFieldMessage(error.field, error.message) : byCode;
  return { field, line: frenchFieldLine(error.field, field) };
}

/** The French of a refusal of the API in one line, naming the field when there is one. */
export const frenchError = (error: { code: string; message: string; field?: string | null }) => frenchRefusal(error).line;

/** An import row's reason as the API words it ("siret: SIRET must be 14 digits"), in French. */
export function frenchReason(reason: string): string {
  const match = /^([a-z_][\w.]*): (.*)$/s.exec(reason);
  if (!match) return frenchFieldMessage(null, reason);
  return frenchFieldLine(match[1]!, frenchFieldMessage(match[1]!, match[2]!));
}
