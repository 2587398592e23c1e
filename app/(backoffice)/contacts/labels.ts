import type { Contact, ContactField, LEAD_STATUSES } from '@/lib/domain/contacts';

/** French labels of the back-office; the API's names and messages stay English. */
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const FIELD_LABELS: Record<ContactField, string> = {
  type: 'Type',
  first_name: 'Prénom',
  last_name: 'Nom',
  company: 'Société',
  email: 'E-mail',
  phone: 'Téléphone',
  address: 'Adresse',
  city: 'Ville',
  postal_code: 'Code postal',
  country: 'Pays',
  siret: 'SIRET',
  vat_intra: 'N° TVA intracommunautaire',
  default_payment_terms: 'Conditions de paiement',
  default_discount_terms: 'Conditions d’escompte',
  preferred_language: 'Langue préférée',
  reminder_opt_out: 'Pas de relances',
  marketing_consent: 'Consentement marketing',
  consent_source: 'Source du consentement',
  legal_basis: 'Base légale',
  lead_status: 'Statut commercial',
  lead_score: 'Score',
  notes: 'Notes',
  tags: 'Étiquettes',
};

export const TYPE_LABELS = { particulier: 'Particulier', professionnel: 'Professionnel' } as const;

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'Nouveau',
  qualified: 'Qualifié',
  contacted: 'Contacté',
  won: 'Gagné',
  lost: 'Perdu',
};

export const LEAD_STATUS_CHIPS: Record<LeadStatus, string> = {
  new: 'chip-blue',
  qualified: 'chip-amber',
  contacted: 'chip-grey',
  won: 'chip-green',
  lost: 'chip-red',
};

export const LANGUAGE_LABELS = { fr: 'Français', en: 'Anglais' } as const;

export const DUPLICATE_REASON_LABELS = {
  email: 'Même e-mail',
  siret: 'Même SIRET',
  name_postal_code: 'Même nom et code postal',
} as const;

/** Records of other modules a merge moves, by the resource names of lib/domain/contacts/references.ts. */
export const RESOURCE_LABELS: Record<string, string> = {
  consent_history: 'Historique de consentement',
  merged_contacts: 'Contacts fusionnés auparavant',
  billing_documents: 'Devis et factures',
};

/** A contact's value as the back-office shows it. */
export function formatValue(field: ContactField, value: unknown): string {
  if (value === null || value === undefined || value === '') return field === 'marketing_consent' ? 'Jamais demandé' : '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (field === 'type') return TYPE_LABELS[value as keyof typeof TYPE_LABELS] ?? String(value);
  if (field === 'lead_status') return LEAD_STATUS_LABELS[value as LeadStatus] ?? String(value);
  if (field === 'preferred_language') return LANGUAGE_LABELS[value as keyof typeof LANGUAGE_LABELS] ?? String(value);
  return String(value);
}

/** What happened to a contact that is not live, for a chip; null when it is live. */
export function contactState(c: Pick<Contact, 'deleted_at' | 'merged_into_id' | 'erased_at'>): { label: string; chip: string } | null {
  if (c.erased_at) return { label: 'effacé', chip: 'chip-red' };
  if (c.merged_into_id) return { label: 'fusionné', chip: 'chip-grey' };
  if (c.deleted_at) return { label: 'supprimé', chip: 'chip-amber' };
  return null;
}
