/*
 * The French name of every field the API can refuse (a key of its input schemas), by snake_case key, as the
 * back-office shows it before a message (« SIRET : … ») and above a form. A dotted path is named from its parts:
 * `items.2.vat_rate` is « Ligne 3 — Taux de TVA ». No imports: client components read it too.
 */

export const FIELD_LABELS: Readonly<Record<string, string>> = {
  // Contacts
  type: 'Type',
  first_name: 'Prénom',
  last_name: 'Nom',
  company: 'Société',
  display_name: 'Nom affiché',
  email: 'E-mail',
  phone: 'Téléphone',
  address: 'Adresse',
  delivery_address: 'Adresse de livraison',
  city: 'Ville',
  postal_code: 'Code postal',
  country: 'Pays',
  siret: 'SIRET',
  siren: 'SIREN',
  vat_intra: 'N° de TVA intracommunautaire',
  vat_number: 'N° de TVA intracommunautaire',
  default_payment_terms: 'Conditions de paiement par défaut',
  default_discount_terms: 'Conditions d’escompte par défaut',
  preferred_language: 'Langue',
  reminder_opt_out: 'Pas de relance',
  marketing_consent: 'Consentement marketing',
  consent_source: 'Source du consentement',
  legal_basis: 'Base légale',
  lead_status: 'Statut commercial',
  lead_score: 'Score',
  notes: 'Notes',
  tags: 'Étiquettes',
  tag: 'Étiquette',
  contacts: 'Contacts',
  contact: 'Client',
  contact_id: 'Client',
  source_ids: 'Contacts à fusionner',
  target_id: 'Contact conservé',
  fields: 'Champs conservés',
  include_deleted: 'Contacts supprimés',
  // Documents
  document_type: 'Type de document',
  title: 'Titre',
  reference: 'Référence',
  issue_date: 'Date d’émission',
  issue_date_from: 'Émise à partir du',
  issue_date_to: 'Émise jusqu’au',
  due_date: 'Échéance',
  service_date: 'Date de la prestation',
  validity_date: 'Validité',
  payment_terms: 'Conditions de paiement',
  discount_terms: 'Conditions d’escompte',
  operation_nature: 'Nature de l’opération',
  vat_exigibility: 'Exigibilité de la TVA',
  payment_plan_kind: 'Échéancier',
  payment_plan_config: 'Échéancier',
  deposit_request_percentage: 'Acompte demandé',
  percentage: 'Pourcentage de l’acompte',
  items: 'Lignes',
  frequency: 'Fréquence',
  next_generation_date: 'Prochaine facture',
  auto_send: 'Envoi automatique',
  auto_collect_sepa: 'Prélèvement SEPA automatique',
  kind: 'Type de ligne',
  product_id: 'Produit',
  description: 'Description',
  quantity: 'Quantité',
  unit: 'Unité',
  unit_price: 'Prix unitaire',
  unit_price_cents: 'Prix unitaire',
  vat_rate: 'Taux de TVA',
  vat_category: 'Catégorie de TVA',
  vat_exemption_reason: 'Motif d’exonération',
  credit_reason_code: 'Motif de l’avoir',
  credit_reason_text: 'Précision sur le motif',
  footer_mentions: 'Mentions de pied de page',
  status: 'Statut',
  number: 'Numéro',
  q: 'Recherche',
  from: 'Du',
  to: 'Au',
  // Payments
  amount: 'Montant',
  amount_cents: 'Montant',
  paid_at: 'Date du paiement',
  method: 'Moyen de paiement',
  payment_method: 'Moyen de paiement',
  account: 'Compte de paiement',
  // Sending and reminders
  subject: 'Objet',
  message: 'Message',
  cc: 'Copie à',
  attachments: 'Pièces jointes',
  scheduled_at: 'Date de la relance',
  tone: 'Ton',
  offset_days: 'Délai',
  payment_reminder_offsets: 'Relances de paiement',
  quote_expiry_reminder_offsets: 'Relances des devis',
  // Invoice settings
  settings: 'Réglages de facturation',
  penalty_rate: 'Taux des pénalités de retard',
  recovery_fee: 'Indemnité de recouvrement',
  default_validity_days: 'Validité des devis',
  default_vat_exigibility: 'Exigibilité de la TVA par défaut',
  devis_prefix: 'Préfixe des devis',
  facture_prefix: 'Préfixe des factures',
  acompte_prefix: 'Préfixe des factures d’acompte',
  avoir_prefix: 'Préfixe des avoirs',
  acompte_percentage: 'Acompte par défaut',
  auto_convert_signed_quotes: 'Conversion des devis signés',
  auto_finalize_signed_invoices: 'Finalisation des factures signées',
  auto_send_signed_invoices: 'Envoi des factures signées',
  iban: 'IBAN',
  bic: 'BIC',
  // Signature
  file: 'Fichier',
  labels: 'Étiquettes',
  cc_recipients: 'Destinataires en copie',
  // Organisation and staff
  name: 'Nom',
  legal_name: 'Raison sociale',
  legal_form: 'Forme juridique',
  rcs: 'RCS',
  share_capital_cents: 'Capital social',
  password: 'Mot de passe',
  role: 'Rôle',
  // API keys
  scopes: 'Droits',
  env: 'Environnement',
  id: 'Identifiant',
  details: 'Détails',
  position: 'Position',
  execution_timeline: 'Calendrier d’exécution',
  einvoicing_enabled: 'Facturation électronique',
  ereporting_prefs: 'E-reporting',
  b2c_sales: 'Ventes aux particuliers (B2C)',
  international_sales: 'Ventes internationales (B2B intra-UE et export)',
  payment_data: 'Encaissements des prestations de services',
  vat_regime: 'Régime de TVA',
  periodicity: 'Périodicité des transactions',
  payments_periodicity: 'Périodicité des encaissements',
  pdp_config: 'Plateforme agréée',
  provider: 'Interface de la plateforme',
  base_url: 'Adresse de l’API de la plateforme',
  token_url: 'Adresse du jeton OAuth',
  client_id: 'Identifiant client',
  client_secret: 'Secret client',
  routing_code: 'Code de routage',
  org_id: 'Organisation',
  created_at: 'Création',
  updated_at: 'Modification',
  // Webhooks
  url: 'URL',
  events: 'Événements',
  enabled: 'Actif',
  // Lists
  outstanding: 'À encaisser',
  overdue: 'En retard',
  awaiting_answer: 'Devis en attente de réponse',
  dry_run: 'Simulation',
  download: 'Téléchargement',
  cursor: 'Page',
  limit: 'Nombre par page',
};

const humanize = (key: string) => {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The French name of a dotted field path; '' for the whole form (`_form`). */
export function frenchLabel(path: string): string {
  if (path === '_form') return '';
  const parts = path.split('.');
  const named: string[] = [];
  parts.forEach((part, i) => {
    if (/^\d+$/.test(part)) {
      const rank = Number(part) + 1;
      if (parts[i - 1] === 'items') named[named.length - 1] = `Ligne ${rank}`;
      else named[named.length - 1] = `${named.at(-1) ?? 'Élément'} n° ${rank}`;
    } else named.push(FIELD_LABELS[part] ?? humanize(part));
  });
  return named.join(' — ');
}

/** Whether a key has its own French name (the catalogue's test asks it of every field of the input schemas). */
export const hasFrenchLabel = (key: string) => key in FIELD_LABELS;
