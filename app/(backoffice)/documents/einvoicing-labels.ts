import type { BillingDocument } from '@/lib/domain/documents';
import { LIFECYCLE_CODES } from '@/lib/domain/einvoicing';

/* The words and chips of e-invoicing on the document page and in the documents list. */

export const TRANSMISSION_LABELS: Record<BillingDocument['transmission_status'], string> = {
  not_required: 'Non concernée',
  pending: 'En attente',
  sending: 'Envoi en cours',
  sent: 'Transmise',
  failed: 'Échec',
};

export const TRANSMISSION_CHIPS: Record<BillingDocument['transmission_status'], string> = {
  not_required: 'chip-grey',
  pending: 'chip-amber',
  sending: 'chip-amber',
  sent: 'chip-green',
  failed: 'chip-red',
};

export const ISSUER_LABELS: Record<string, string> = {
  seller: 'Vous (vendeur)',
  buyer: 'Le client',
  seller_pa: 'Votre plateforme',
  buyer_pa: 'La plateforme du client',
  ppf: 'Portail public (PPF)',
};

const TOKEN_LABELS = new Map<string, string>(Object.values(LIFECYCLE_CODES).map((c) => [c.token, c.label]));

/** The French name of a lifecycle token (`rejetee` → Rejetée); an unlisted code reads as itself. */
export const lifecycleLabel = (token: string) => TOKEN_LABELS.get(token) ?? token.replace(/^code_/, 'Statut ');

/** Red: the invoice will not be paid as it stands (rejected, refused, unreadable, misrouted); amber: on hold. */
export function lifecycleChip(token: string): string {
  if (['rejetee', 'refusee', 'irrecevable', 'erreur_routage', 'annulee'].includes(token)) return 'chip-red';
  if (['en_litige', 'suspendue', 'approuvee_partiellement'].includes(token)) return 'chip-amber';
  if (['encaissee', 'approuvee', 'paiement_transmis', 'completee'].includes(token)) return 'chip-green';
  return 'chip-blue';
}

/** What the documents list flags: a transmission that failed, or an invoice the PA rejected (213) or the buyer refused (210). */
export function einvoicingAlert(doc: Pick<BillingDocument, 'transmission_status' | 'lifecycle_status'>): { label: string; chip: string } | null {
  if (doc.transmission_status === 'failed') return { label: 'Transmission en échec', chip: 'chip-red' };
  if (doc.lifecycle_status === 'rejetee' || doc.lifecycle_status === 'refusee') return { label: lifecycleLabel(doc.lifecycle_status), chip: 'chip-red' };
  return null;
}

/**
 * The transmission badge of a document that goes to the PA (the document page's header, the documents list): its
 * latest lifecycle status once the PA reported one, else where its transmission stands; red for an alert
 * (einvoicingAlert). Null for a document that does not travel.
 */
export function transmissionBadge(doc: Pick<BillingDocument, 'transmission_status' | 'lifecycle_status'>): { label: string; chip: string; alert: boolean } | null {
  if (doc.transmission_status === 'not_required' && !doc.lifecycle_status) return null;
  const alert = einvoicingAlert(doc);
  if (alert) return { label: `PA : ${alert.label}`, chip: alert.chip, alert: true };
  if (doc.lifecycle_status) return { label: `PA : ${lifecycleLabel(doc.lifecycle_status)}`, chip: lifecycleChip(doc.lifecycle_status), alert: false };
  return { label: `PA : ${TRANSMISSION_LABELS[doc.transmission_status]}`, chip: TRANSMISSION_CHIPS[doc.transmission_status], alert: false };
}
