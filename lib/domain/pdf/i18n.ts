import type { DocumentType } from '@/db/schema/billing';
import { formatDay, formatMoney } from '@/lib/platform/format';
import type { Language, Seller } from './model';

/** The documents' dates: "2026-11-22" → "22/11/2026" / "22 November 2026". */
export const documentDay = (day: string, lang: Language) => formatDay(day, lang, lang === 'fr' ? 'numeric' : 'long');

const UNITS: Record<string, Record<Language, string>> = {
  HUR: { fr: 'h', en: 'h' },
  DAY: { fr: 'jour', en: 'day' },
  WEE: { fr: 'semaine', en: 'week' },
  MON: { fr: 'mois', en: 'month' },
  ANN: { fr: 'an', en: 'year' },
  H87: { fr: 'pièce', en: 'piece' },
  C62: { fr: 'unité', en: 'unit' },
  KGM: { fr: 'kg', en: 'kg' },
  GRM: { fr: 'g', en: 'g' },
  MTR: { fr: 'm', en: 'm' },
  MTK: { fr: 'm²', en: 'm²' },
  MTQ: { fr: 'm³', en: 'm³' },
  LTR: { fr: 'l', en: 'l' },
  KMT: { fr: 'km', en: 'km' },
  MIN: { fr: 'min', en: 'min' },
};

const regions = { fr: new Intl.DisplayNames(['fr'], { type: 'region' }), en: new Intl.DisplayNames(['en'], { type: 'region' }) };

/** "DE" → "Allemagne" / "Germany". */
export const countryName = (code: string, lang: Language) => regions[lang].of(code) ?? code;

/** UN/ECE Rec 20 code → a readable unit; an unknown code is printed as is. */
export const unitLabel = (code: string | null, lang: Language) => (code ? (UNITS[code]?.[lang] ?? code) : '');

type Labels = typeof fr;

const fr = {
  kind: { devis: 'Devis', facture: 'Facture', acompte: "Facture d’acompte", avoir: 'Avoir' } satisfies Record<DocumentType, string>,
  colon: '\u00a0: ',
  draft: 'BROUILLON',
  draftNumber: 'brouillon non numéroté',
  number: 'N°',
  issueDate: "Date d’émission",
  serviceDate: 'Date de livraison ou de prestation',
  dueDate: "Date d’échéance",
  validityDate: "Valable jusqu’au",
  seller: 'Émetteur',
  buyer: 'Client',
  deliveryAddress: 'Adresse de livraison',
  siren: 'SIREN',
  siret: 'SIRET',
  vatNumber: 'N° TVA',
  operationNature: "Nature de l’opération",
  natures: {
    biens: 'livraison de biens',
    services: 'prestation de services',
    mixte: 'opération mixte (livraison de biens et prestation de services)',
  },
  vatOnDebits: "Option pour le paiement de la taxe d’après les débits",
  description: 'Désignation',
  quantity: 'Qté',
  unit: 'Unité',
  unitPrice: 'PU HT',
  vatRate: 'TVA',
  lineTotal: 'Total HT',
  discount: 'Remise',
  totalHt: 'Total HT',
  vatOn: (rate: string, base: string) => `TVA ${rate} sur ${base}`,
  totalVat: 'Total TVA',
  totalTtc: 'Total TTC',
  netToPay: 'Net à payer',
  creditTotal: "Montant TTC de l’avoir",
  vatSummary: 'Récapitulatif TVA',
  vatBase: 'Base HT',
  vatAmount: 'Montant TVA',
  vatCategory: 'Catégorie',
  payment: 'Règlement',
  paymentTerms: 'Conditions de paiement',
  payableOnReceipt: 'Payable à réception',
  payableWithin: (days: number) => `Paiement à ${days} jours`,
  paymentMethod: 'Mode de paiement',
  bank: 'Coordonnées bancaires',
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
  quoteValidity: (date: string) => `Devis valable jusqu’au ${date}.`,
  depositRequested: (pct: string, amount: string) => `Acompte demandé à la commande : ${pct}, soit ${amount} TTC.`,
  executionTimeline: "Délai d’exécution",
  approval: 'Bon pour accord',
  approvalHint: 'Date, signature et cachet du client, précédés de la mention manuscrite « Bon pour accord »',
  approvalDate: 'Date :',
  approvalName: 'Nom et qualité du signataire :',
  depositOf: (pct: string, quote: string, date: string) => `Acompte de ${pct} sur le devis ${quote} du ${date}.`,
  fromQuote: (quote: string, date: string) => `Établie d’après le devis ${quote} du ${date}.`,
  depositsDeducted: 'Acomptes déduits',
  depositLine: (number: string, date: string, ht: string, ttc: string) => `Facture d’acompte ${number} du ${date} : ${ht} HT, ${ttc} TTC`,
  creditFor: (what: string, number: string, date: string) => `Avoir sur ${what} ${number} du ${date}.`,
  creditInvoice: { facture: 'la facture', acompte: "la facture d’acompte", devis: 'le devis', avoir: "l’avoir" } satisfies Record<DocumentType, string>,
  creditReason: 'Motif',
  creditReasons: {
    cancellation: 'annulation',
    billing_error: 'erreur de facturation',
    return: 'retour de marchandises',
    commercial_gesture: 'geste commercial',
    other: 'autre',
  },
  notes: 'Notes',
  page: (n: number, total: number) => `Page ${n} / ${total}`,
  capital: (amount: string) => `au capital de ${amount}`,
  rcs: 'RCS',
  paymentMethods: {
    bank_transfer: 'Virement bancaire',
    card: 'Carte bancaire',
    sepa_debit: 'Prélèvement SEPA',
    cheque: 'Chèque',
    cash: 'Espèces',
    other: 'Autre',
  } as Record<string, string>,
};

const en: Labels = {
  kind: { devis: 'Quote', facture: 'Invoice', acompte: 'Deposit invoice', avoir: 'Credit note' },
  colon: ': ',
  draft: 'DRAFT',
  draftNumber: 'draft, not numbered',
  number: 'No.',
  issueDate: 'Issue date',
  serviceDate: 'Delivery or service date',
  dueDate: 'Due date',
  validityDate: 'Valid until',
  seller: 'From',
  buyer: 'Bill to',
  deliveryAddress: 'Delivery address',
  siren: 'SIREN',
  siret: 'SIRET',
  vatNumber: 'VAT No.',
  operationNature: 'Nature of the transaction',
  natures: { biens: 'supply of goods', services: 'supply of services', mixte: 'mixed (supply of goods and services)' },
  vatOnDebits: 'VAT payable on an accrual basis (option pour les débits)',
  description: 'Description',
  quantity: 'Qty',
  unit: 'Unit',
  unitPrice: 'Unit price',
  vatRate: 'VAT',
  lineTotal: 'Amount',
  discount: 'Discount',
  totalHt: 'Total excl. VAT',
  vatOn: (rate: string, base: string) => `VAT ${rate} on ${base}`,
  totalVat: 'Total VAT',
  totalTtc: 'Total incl. VAT',
  netToPay: 'Amount due',
  creditTotal: 'Credit total incl. VAT',
  vatSummary: 'VAT summary',
  vatBase: 'Taxable amount',
  vatAmount: 'VAT amount',
  vatCategory: 'Category',
  payment: 'Payment',
  paymentTerms: 'Payment terms',
  payableOnReceipt: 'Payable upon receipt',
  payableWithin: (days: number) => `Payment within ${days} days`,
  paymentMethod: 'Payment method',
  bank: 'Bank details',
  earlyDiscount: 'Early payment discount',
  noEarlyDiscount: 'No discount for early payment.',
  latePenalties: (rate: string | null) =>
    rate
      ? `Late payment penalties are due at an annual rate of ${rate} from the day after the due date.`
      : 'Late payment penalties are due at the European Central Bank refinancing rate plus 10 points from the day after the due date.',
  recoveryFee: (amount: string) => `A fixed indemnity of ${amount} for recovery costs is due in case of late payment (French Commercial Code, art. L441-10 and D441-5).`,
  consumerPenalties: 'In case of late payment, interest at the legal rate after formal notice (consumer client).',
  consumerRecovery: 'Fixed recovery indemnity: not applicable (consumer client).',
  quoteValidity: (date: string) => `This quote is valid until ${date}.`,
  depositRequested: (pct: string, amount: string) => `Deposit due on order: ${pct}, i.e. ${amount} incl. VAT.`,
  executionTimeline: 'Completion time',
  approval: 'Approved',
  approvalHint: 'Date, signature and stamp of the client, preceded by the handwritten words “Bon pour accord” (approved)',
  approvalDate: 'Date:',
  approvalName: 'Name and position of the signatory:',
  depositOf: (pct: string, quote: string, date: string) => `Deposit of ${pct} on quote ${quote} of ${date}.`,
  fromQuote: (quote: string, date: string) => `Based on quote ${quote} of ${date}.`,
  depositsDeducted: 'Deposits deducted',
  depositLine: (number: string, date: string, ht: string, ttc: string) => `Deposit invoice ${number} of ${date}: ${ht} excl. VAT, ${ttc} incl. VAT`,
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
  notes: 'Notes',
  page: (n: number, total: number) => `Page ${n} of ${total}`,
  capital: (amount: string) => `with a share capital of ${amount}`,
  rcs: 'RCS',
  paymentMethods: {
    bank_transfer: 'Bank transfer',
    card: 'Card',
    sepa_debit: 'SEPA direct debit',
    cheque: 'Cheque',
    cash: 'Cash',
    other: 'Other',
  },
};

export const LABELS: Record<Language, Labels> = { fr, en };

export const lines = (...parts: Array<string | null | undefined | false>) => parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '');

/** "SAS au capital de 10 000 € — 12 rue … — SIREN … — RCS … — N° TVA …": the seller's legal identity in one line. */
export function legalIdentity(seller: Seller, lang: Language): string {
  const t = LABELS[lang];
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
