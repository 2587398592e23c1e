import type { DocumentType } from '@/db/schema/billing';
import { type Language, MENTION_TEXTS } from '@/lib/domain/facturx';
import { documentTitle } from '@/lib/platform/i18n';

/**
 * The printed document's texts in both languages. The mentions the Factur-X XML states as well (penalties, payment
 * terms, credit reasons, the seller's legal identity) are lib/domain/facturx's MENTION_TEXTS, spread in here.
 */
export { documentDay, legalIdentity, lines } from '@/lib/domain/facturx';

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
  ...MENTION_TEXTS.fr,
  kind: { devis: documentTitle('devis'), facture: documentTitle('facture'), acompte: documentTitle('acompte'), avoir: documentTitle('avoir') } satisfies Record<DocumentType, string>,
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
  paymentMethod: 'Mode de paiement',
  bank: 'Coordonnées bancaires',
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
  notes: 'Notes',
  page: (n: number, total: number) => `Page ${n} / ${total}`,
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
  ...MENTION_TEXTS.en,
  kind: { devis: 'Quote', facture: 'Invoice', acompte: 'Deposit invoice', avoir: 'Credit note' },
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
  paymentMethod: 'Payment method',
  bank: 'Bank details',
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
  notes: 'Notes',
  page: (n: number, total: number) => `Page ${n} of ${total}`,
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
