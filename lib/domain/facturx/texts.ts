import type { DocumentType } from '@/db/schema/billing';
import { formatDay, formatMoney } from '@/lib/platform/format';
import { theDocument } from '@/lib/platform/i18n';
import type { Language, Seller } from './model';

/** The documents' dates: "2026-11-22" → "22/11/2026" / "22 November 2026". */
export const documentDay = (day: string, lang: Language) => formatDay(day, lang, lang === 'fr' ? 'numeric' : 'long');

/**
 * The mentions the Factur-X XML and the printed document state alike, in both languages (lib/domain/pdf's LABELS
 * spreads them among the printed texts).
 */
const fr = {
  colon: '\u00a0: ',
  siren: 'SIREN',
  siret: 'SIRET',
  vatNumber: 'N° TVA',
  payableOnReceipt: 'Payable à réception',
  payableWithin: (days: number) => `Paiement à ${days} jours`,
  earlyDiscount: 'Escompte pour paiement anticipé',
  noEarlyDiscount: 'Pas d’escompte pour paiement anticipé.',
  latePenalties: (rate: string | null) =>
    rate
      ? `En cas de retard de paiement, des pénalités de retard sont exigibles au taux annuel de ${rate}, à compter du lendemain de la date d’échéance.`
      : "En cas de retard de paiement, des pénalités de retard sont exigibles au taux directeur de la Banque centrale européenne majoré de 10 points, à compter du lendemain de la date d’échéance.",
  recoveryFee: (amount: string) =>
    `Indemnité forfaitaire pour frais de recouvrement due en cas de retard de paiement : ${amount} (art. L441-10 et D441-5 du Code de commerce).`,
  consumerPenalties: 'En cas de retard de paiement, intérêts au taux légal après mise en demeure (client non professionnel).',
  consumerRecovery: 'Indemnité forfaitaire pour frais de recouvrement : non applicable (client non professionnel).',
  creditFor: (what: string, number: string, date: string) => `Avoir sur ${what} ${number} du ${date}.`,
  creditInvoice: { facture: theDocument('facture'), acompte: theDocument('acompte'), devis: theDocument('devis'), avoir: theDocument('avoir') } satisfies Record<DocumentType, string>,
  creditReason: 'Motif',
  creditReasons: {
    cancellation: 'annulation',
    billing_error: 'erreur de facturation',
    return: 'retour de marchandises',
    commercial_gesture: 'geste commercial',
    other: 'autre',
  },
  capital: (amount: string) => `au capital de ${amount}`,
  rcs: 'RCS',
};

const en: typeof fr = {
  colon: ': ',
  siren: 'SIREN',
  siret: 'SIRET',
  vatNumber: 'VAT No.',
  payableOnReceipt: 'Payable upon receipt',
  payableWithin: (days: number) => `Payment within ${days} days`,
  earlyDiscount: 'Early payment discount',
  noEarlyDiscount: 'No discount for early payment.',
  latePenalties: (rate: string | null) =>
    rate
      ? `Late payment penalties are due at an annual rate of ${rate} from the day after the due date.`
      : 'Late payment penalties are due at the European Central Bank refinancing rate plus 10 points from the day after the due date.',
  recoveryFee: (amount: string) => `A fixed indemnity of ${amount} for recovery costs is due in case of late payment (French Commercial Code, art. L441-10 and D441-5).`,
  consumerPenalties: 'In case of late payment, interest at the legal rate after formal notice (consumer client).',
  consumerRecovery: 'Fixed recovery indemnity: not applicable (consumer client).',
  creditFor: (what: string, number: string, date: string) => `Credit note for ${what} ${number} of ${date}.`,
  creditInvoice: { facture: 'invoice', acompte: 'deposit invoice', devis: 'quote', avoir: 'credit note' },
  creditReason: 'Reason',
  creditReasons: {
    cancellation: 'cancellation',
    billing_error: 'billing error',
    return: 'returned goods',
    commercial_gesture: 'commercial gesture',
    other: 'other',
  },
  capital: (amount: string) => `with a share capital of ${amount}`,
  rcs: 'RCS',
};

export const MENTION_TEXTS: Record<Language, typeof fr> = { fr, en };

export const lines = (...parts: Array<string | null | undefined | false>) => parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '');

/** "SAS au capital de 10 000 € — 12 rue … — SIREN … — RCS … — N° TVA …": the seller's legal identity in one line. */
export function legalIdentity(seller: Seller, lang: Language): string {
  const t = MENTION_TEXTS[lang];
  const form = lines(seller.legal_form, seller.share_capital_cents != null ? t.capital(formatMoney(seller.share_capital_cents, lang, { nbsp: true })) : null).join(' ');
  const address = lines(seller.address, lines(seller.postal_code, seller.city).join(' '), seller.country !== 'FR' ? seller.country : null).join(', ');
  const rcs = seller.rcs ? (/^rcs\b/i.test(seller.rcs) ? seller.rcs : `${t.rcs} ${seller.rcs}`) : null;
  return lines(
    lines(seller.legal_name ?? seller.name, form).join(', '),
    address,
    seller.siren && `${t.siren} ${seller.siren}`,
    seller.siret && `${t.siret} ${seller.siret}`,
    rcs,
    seller.vat_number && `${t.vatNumber} ${seller.vat_number}`,
  ).join(' — ');
}
