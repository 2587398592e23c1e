import type { LifecycleIssuerRole } from '@/db/schema';

/**
 * Lifecycle statuses (CDAR, XP Z12-012; reference/french-invoicing-compliance.md §B8): code → token (DESIGN §11:
 * `lifecycle_status` holds the token) and French name. 200, 210, 212 and 213 are the mandatory four.
 */
export const LIFECYCLE_CODES = {
  '200': { token: 'deposee', label: 'Déposée' },
  '201': { token: 'emise', label: 'Émise par la plateforme' },
  '202': { token: 'recue', label: 'Reçue par la plateforme' },
  '203': { token: 'mise_a_disposition', label: 'Mise à disposition' },
  '204': { token: 'prise_en_charge', label: 'Prise en charge' },
  '205': { token: 'approuvee', label: 'Approuvée' },
  '206': { token: 'approuvee_partiellement', label: 'Approuvée partiellement' },
  '207': { token: 'en_litige', label: 'En litige' },
  '208': { token: 'suspendue', label: 'Suspendue' },
  '209': { token: 'completee', label: 'Complétée' },
  '210': { token: 'refusee', label: 'Refusée' },
  '211': { token: 'paiement_transmis', label: 'Paiement transmis' },
  '212': { token: 'encaissee', label: 'Encaissée' },
  '213': { token: 'rejetee', label: 'Rejetée' },
  '214': { token: 'visee', label: 'Visée' },
  '220': { token: 'annulee', label: 'Annulée' },
  '221': { token: 'erreur_routage', label: 'Erreur de routage' },
  '501': { token: 'irrecevable', label: 'Irrecevable' },
} as const satisfies Record<string, { token: string; label: string }>;
export type LifecycleCode = keyof typeof LIFECYCLE_CODES;

export const isLifecycleCode = (code: string): code is LifecycleCode => code in LIFECYCLE_CODES;

/** The token of a code; an unlisted code (the list is open to bilateral additions) reads `code_<n>`. */
export const lifecycleToken = (code: string) => (isLifecycleCode(code) ? LIFECYCLE_CODES[code].token : `code_${code}`);

/** Codes that need a reason (XP Z12-012): 206, 207, 208, 210, 213, 221, 501. */
export const REASON_REQUIRED = new Set(['206', '207', '208', '210', '213', '221', '501']);

/** Who issues each status in the 4-corner model, by default (C2 = the seller's PA, C3 = the buyer's PA). */
export function defaultIssuerRole(code: string): LifecycleIssuerRole {
  if (code === '200' || code === '201' || code === '213' || code === '501') return 'seller_pa';
  if (code === '202' || code === '203' || code === '221') return 'buyer_pa';
  if (code === '212') return 'seller';
  return 'buyer';
}
