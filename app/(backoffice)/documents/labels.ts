import type {
  CREDIT_REASON_CODES,
  DocumentStatus,
  DocumentType,
  OPERATION_NATURES,
  PAYMENT_METHODS,
  PAYMENT_PLAN_KINDS,
  VAT_EXIGIBILITIES,
} from '@/db/schema/billing';
import { agree, documentTitle, ofDocument } from '@/lib/platform/i18n';
import type { VatCategory } from '@/lib/platform/money';

/**
 * French labels of the billing back-office; the API's names and messages stay English. Browser-safe (types and the
 * i18n catalogue). A phrase about a document takes its agreement from lib/platform/i18n (documents-fr.ts).
 */

export const TYPE_LABELS: Record<DocumentType, string> = {
  devis: documentTitle('devis'),
  facture: documentTitle('facture'),
  acompte: documentTitle('acompte'),
  avoir: documentTitle('avoir'),
};

/** The documents list's filters, read from its URL (the CSV export takes the same, without the cursor). */
export const DOCUMENT_LIST_FILTERS = ['type', 'status', 'contact_id', 'q', 'issue_date_from', 'issue_date_to', 'outstanding', 'overdue', 'awaiting_answer', 'cursor'] as const;

/** The most documents one bulk action of the list takes (a list page shows at most 100). */
export const MAX_BULK = 100;

/** Every status, in the order of the list's chips. */
export const STATUSES: DocumentStatus[] = ['draft', 'finalized', 'sent', 'paid', 'accepted', 'rejected', 'expired', 'cancelled'];

export const STATUS_LABELS: Record<DocumentStatus, string> = {
  draft: 'brouillon',
  finalized: 'finalisé',
  sent: 'envoyé',
  paid: 'payé',
  accepted: 'accepté',
  rejected: 'refusé',
  expired: 'expiré',
  cancelled: 'annulé',
};

/**
 * "partiellement payée" for an issued invoice or deposit invoice that received part of its total: derived from its
 * payments, not a stored status (the API's status stays finalized or sent until it is paid). Null otherwise.
 */
export function paymentState(doc: { type: DocumentType; status: DocumentStatus; total_ttc: number }, paidCents: number): string | null {
  const issued = (doc.type === 'facture' || doc.type === 'acompte') && (doc.status === 'finalized' || doc.status === 'sent');
  return issued && paidCents > 0 && paidCents < doc.total_ttc ? 'partiellement payée' : null;
}

/** A document's status as its chip says it, agreeing with its noun: « finalisée » on a facture, « finalisé » on a devis. */
export const statusLabel = (doc: { type: DocumentType; status: DocumentStatus }) => agree(doc.type, STATUS_LABELS[doc.status]);

/** A history event of a document, agreeing with it: « Facture d’acompte AC-1 créée ». */
export const historyLabel = (type: DocumentType, event: string) => agree(type, HISTORY_LABELS[event] ?? event);

export const STATUS_CHIPS: Record<DocumentStatus, string> = {
  draft: 'chip-grey',
  finalized: 'chip-blue',
  sent: 'chip-blue',
  paid: 'chip-green',
  accepted: 'chip-green',
  rejected: 'chip-red',
  expired: 'chip-amber',
  cancelled: 'chip-red',
};

export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Virement',
  card: 'Carte bancaire',
  sepa_debit: 'Prélèvement SEPA',
  cheque: 'Chèque',
  cash: 'Espèces',
  other: 'Autre',
};

export const CREDIT_REASON_LABELS: Record<(typeof CREDIT_REASON_CODES)[number], string> = {
  cancellation: 'Annulation',
  billing_error: 'Erreur de facturation',
  return: 'Retour de marchandise',
  commercial_gesture: 'Geste commercial',
  other: 'Autre motif',
};

export const OPERATION_NATURE_LABELS: Record<(typeof OPERATION_NATURES)[number], string> = {
  biens: 'Livraison de biens',
  services: 'Prestation de services',
  mixte: 'Biens et services',
};

export const VAT_EXIGIBILITY_LABELS: Record<(typeof VAT_EXIGIBILITIES)[number], string> = {
  debits: 'TVA sur les débits',
  encaissements: 'TVA sur les encaissements',
};

export const PAYMENT_PLAN_LABELS: Record<(typeof PAYMENT_PLAN_KINDS)[number], string> = {
  none: 'Paiement en une fois',
  deposit_then_balance: 'Acompte puis solde',
  installments: 'Paiement en plusieurs échéances',
};

/** EN 16931 VAT categories (BT-151); at 0 % the category says why no VAT is due. */
export const VAT_CATEGORY_LABELS: Record<VatCategory, string> = {
  S: 'Taux normal',
  Z: 'Taux zéro',
  E: 'Exonération',
  AE: 'Autoliquidation',
  K: 'Livraison intracommunautaire',
  G: 'Exportation hors UE',
  O: 'Hors champ de la TVA',
};

/** The French rates, highest first (8,5 % and 2,1 % apply in the overseas departments and to a few goods). */
export const VAT_RATES = ['20.00', '10.00', '8.50', '5.50', '2.10', '0.00'];

export const FLOW_ROLE_LABELS = { quote: 'Devis', deposit: 'Acompte', invoice: 'Facture', credit_note: 'Avoir' } as const;

export const HISTORY_LABELS: Record<string, string> = {
  created: 'créé',
  finalized: 'finalisé',
  sent: 'envoyé',
  payment: 'paiement reçu',
  accepted: 'accepté',
  rejected: 'refusé',
  expired: 'expiré',
  cancelled: 'annulé',
  paid: 'payé',
};

/** How a document is named in a sentence: its number, else "Brouillon de devis", "Brouillon d’avoir". */
export function documentName(doc: { type: DocumentType; number: string | null }) {
  return doc.number ?? `Brouillon ${ofDocument(doc.type)}`;
}

/** An amount of a document as lists show it: a credit note takes money back, so its amounts read negative. */
export function signedAmount(doc: { type: DocumentType }, cents: number): number {
  return doc.type === 'avoir' ? -cents : cents;
}
