import type { DocumentType } from '@/db/schema/billing';

/*
 * Whether an issued document goes to the buyer's Plateforme Agréée (DESIGN §11): decided once, at finalization, and
 * frozen in the document's own row (`transmission_required`). The rule lives here, with the finalization that applies
 * it; lib/domain/einvoicing, which carries the transmission out, imports it (documents imports no einvoicing code).
 */

/** The documents that travel through the PA: invoices, deposit invoices and credit notes — never quotes. */
export const TRANSMITTED_TYPES: readonly DocumentType[] = ['facture', 'acompte', 'avoir'];

interface BuyerSnapshot {
  type?: string | null;
  siren?: string | null;
  siret?: string | null;
  country?: string | null;
}

/** The buyer's SIREN (and SIRET) when it is a French business: not a private person, a SIREN or SIRET, France (or no country). */
export function frenchBusinessBuyer(snapshot: unknown): { siren: string; siret: string | null } | null {
  const buyer = (snapshot ?? {}) as BuyerSnapshot;
  if (buyer.type === 'particulier') return null;
  const siret = buyer.siret?.replace(/\s/g, '') || null;
  const siren = buyer.siren?.replace(/\s/g, '') || siret?.slice(0, 9) || null;
  if (!siren || !/^\d{9}$/.test(siren)) return null;
  if (buyer.country && buyer.country.toUpperCase() !== 'FR') return null;
  return { siren, siret: siret && /^\d{14}$/.test(siret) ? siret : null };
}

/** Whether a document finalized now goes to the PA: the org opted in, a transmitted type, a French business buyer. */
export function transmissionRequired(type: DocumentType, buyer: unknown, settings: { einvoicing_enabled: boolean } | null | undefined): boolean {
  return settings?.einvoicing_enabled === true && TRANSMITTED_TYPES.includes(type) && frenchBusinessBuyer(buyer) !== null;
}
