import type { LifecycleIssuerRole } from '@/db/schema';

/*
 * The sandbox PA's deterministic scenarios (docs/einvoicing.md § Sandbox PA). An invoice's fate is chosen by its
 * buyer's SIREN (BT-47, read from the submitted file); an enrollment's by the SIREN of the directory line. These
 * SIRENs have valid Luhn keys, so they pass Paraphe's own checks; a SIRET for one is the SIREN + 0001 + a key.
 */

export interface ScenarioStatus {
  code: string;
  role: LifecycleIssuerRole;
  reasonCode?: string;
  reason?: string;
  /** 212: the amount collected is the invoice's total. */
  paid?: boolean;
}

/** By buyer SIREN. Any other buyer: accepted then delivered (200, 202, 203). */
export const INVOICE_SCENARIOS = {
  /** 213 Rejetée by the seller's PA (semantic check), with a reason. */
  '213000003': [{ code: '213', role: 'seller_pa', reasonCode: 'REJ_SEMAN', reason: 'Le numéro de TVA de l’acheteur ne correspond pas à son SIREN (sandbox).' }],
  /** Delivered, then 210 Refusée by the buyer, with a reason. */
  '210000006': [
    { code: '200', role: 'seller_pa' },
    { code: '202', role: 'buyer_pa' },
    { code: '203', role: 'buyer_pa' },
    { code: '210', role: 'buyer', reasonCode: 'DEST_ERR', reason: 'Facture adressée au mauvais destinataire (sandbox).' },
  ],
  /** Delivered, then 207 En litige (disputed) by the buyer, with a reason. */
  '207000001': [
    { code: '200', role: 'seller_pa' },
    { code: '202', role: 'buyer_pa' },
    { code: '203', role: 'buyer_pa' },
    { code: '207', role: 'buyer', reasonCode: 'MONTANTTOTAL_ERR', reason: 'Le montant ne correspond pas au bon de commande (sandbox).' },
  ],
  /** Delivered, approved, paid: 211 Paiement transmis by the buyer, then 212 Encaissée reported back with the invoice's total. */
  '212000004': [
    { code: '200', role: 'seller_pa' },
    { code: '202', role: 'buyer_pa' },
    { code: '203', role: 'buyer_pa' },
    { code: '205', role: 'buyer' },
    { code: '211', role: 'buyer' },
    { code: '212', role: 'seller_pa', paid: true },
  ],
} as const satisfies Record<string, readonly ScenarioStatus[]>;

export const DELIVERED: readonly ScenarioStatus[] = [
  { code: '200', role: 'seller_pa' },
  { code: '202', role: 'buyer_pa' },
  { code: '203', role: 'buyer_pa' },
];

/** A buyer no directory line routes to: the lookup answers 404; a flow sent to it anyway ends in 221 Erreur de routage. */
export const UNKNOWN_BUYER_SIREN = '404000002';
export const ROUTING_ERROR: readonly ScenarioStatus[] = [
  { code: '200', role: 'seller_pa' },
  { code: '221', role: 'buyer_pa', reasonCode: 'ROUTAGE_ERR', reason: 'Destinataire absent de l’annuaire (sandbox).' },
];

/** A file the sandbox cannot read as an invoice: acknowledgement Error, then 501 Irrecevable. */
export const UNREADABLE: readonly ScenarioStatus[] = [{ code: '501', role: 'seller_pa', reasonCode: 'IRR_SYNTAX', reason: 'Fichier illisible (sandbox).' }];

export function scenarioFor(buyerSiren: string | null): readonly ScenarioStatus[] {
  if (buyerSiren === UNKNOWN_BUYER_SIREN) return ROUTING_ERROR;
  return (buyerSiren && (INVOICE_SCENARIOS as Record<string, readonly ScenarioStatus[]>)[buyerSiren]) || DELIVERED;
}

/** By the SIREN of the directory line registered. Any other: Enabled at once (enrolled). */
export const ENROLLMENT_SCENARIOS = {
  /** Created Disabled (pending); Enabled when it is next read. */
  '202000006': 'pending',
  /** Refused at once: 422 with a reason. */
  '422000000': 'refused',
  /** Created Disabled (pending); withdrawn (404) when it is next read. */
  '501000004': 'withdrawn',
} as const;
export type EnrollmentScenario = (typeof ENROLLMENT_SCENARIOS)[keyof typeof ENROLLMENT_SCENARIOS] | 'enabled';

export const enrollmentScenarioFor = (siren: string): EnrollmentScenario => (ENROLLMENT_SCENARIOS as Record<string, EnrollmentScenario>)[siren] ?? 'enabled';
