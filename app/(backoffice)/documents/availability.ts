import type { DocumentStatus, DocumentType } from '@/db/schema/billing';
import { computeTotals, Dec, formatEuros, prorateGroups, type TotalsLine } from '@/lib/money';

/*
 * Which actions the document page offers, and what it says before a cancellation. This mirrors the state table
 * of docs/billing.md so the page shows only the buttons that can succeed; the services stay the authority and
 * any refusal they answer (409, 422) is shown as is.
 */

export interface DocLike {
  id: string;
  type: DocumentType;
  status: DocumentStatus;
  number: string | null;
  finalized_at: string | null;
  validity_date: string | null;
  total_ttc: number;
}

export interface FamilyMember {
  id: string;
  type: DocumentType;
  status: DocumentStatus;
  number: string | null;
  finalized_at: string | null;
  converted_from_id: string | null;
  parent_devis_id: string | null;
  avoir_for_id: string | null;
  total_ttc: number;
}

export interface Availability {
  edit: boolean;
  remove: boolean;
  finalize: boolean;
  duplicate: boolean;
  accept: boolean;
  reject: boolean;
  deposit: boolean;
  convert: boolean;
  creditNote: boolean;
  cancel: boolean;
  /** The payments panel: issued invoices and deposit invoices (a cancelled one keeps its record). */
  payments: boolean;
  recordPayment: boolean;
}

const OPEN_QUOTE: DocumentStatus[] = ['finalized', 'sent'];
const TERMINAL: DocumentStatus[] = ['paid', 'cancelled', 'rejected', 'expired'];
const billed = (type: DocumentType) => type === 'facture' || type === 'acompte';

/** The invoice a quote was converted into (a cancelled one frees the quote). */
export const conversionOf = (doc: DocLike, family: readonly FamilyMember[]) =>
  family.find((d) => d.type === 'facture' && d.converted_from_id === doc.id && d.status !== 'cancelled') ?? null;

/** The live credit note of an invoice, draft or finalized. */
export const creditNoteOf = (doc: DocLike, family: readonly FamilyMember[]) =>
  family.find((d) => d.type === 'avoir' && d.avoir_for_id === doc.id && d.status !== 'cancelled') ?? null;

/** The deposit invoices of a quote that are not cancelled. */
export const depositsOf = (doc: DocLike, family: readonly FamilyMember[]) =>
  family.filter((d) => d.type === 'acompte' && d.parent_devis_id === doc.id && d.status !== 'cancelled');

export function availableActions(doc: DocLike, family: readonly FamilyMember[], today: string): Availability {
  const draft = doc.status === 'draft';
  const quote = doc.type === 'devis';
  const pastValidity = quote && OPEN_QUOTE.includes(doc.status) && doc.validity_date !== null && doc.validity_date < today;
  const conversion = quote ? conversionOf(doc, family) : null;
  const creditNote = billed(doc.type) ? creditNoteOf(doc, family) : null;
  const convertible = quote && ['finalized', 'sent', 'accepted'].includes(doc.status) && !pastValidity && !conversion;
  const issued = doc.finalized_at !== null;
  const cancel =
    !TERMINAL.includes(doc.status) &&
    !(doc.type === 'avoir' && issued) &&
    !(quote && doc.status === 'accepted' && conversion) &&
    !(billed(doc.type) && issued && creditNote?.finalized_at);
  return {
    edit: draft,
    remove: draft,
    finalize: draft,
    duplicate: quote || doc.type === 'facture',
    accept: quote && OPEN_QUOTE.includes(doc.status) && !pastValidity,
    reject: quote && OPEN_QUOTE.includes(doc.status) && !pastValidity,
    deposit: convertible,
    convert: convertible,
    creditNote: billed(doc.type) && issued && !creditNote,
    cancel,
    payments: billed(doc.type) && issued,
    recordPayment: billed(doc.type) && issued && ['finalized', 'sent', 'paid'].includes(doc.status),
  };
}

/** What cancelling this document does, in the order it happens, for the confirmation. */
export function cancelConsequences(doc: DocLike, family: readonly FamilyMember[], totalPaid = 0): string[] {
  if (!doc.finalized_at) {
    return [
      'Le brouillon passe au statut annulé. Il n’a pas de numéro : aucun document n’est émis et aucun numéro n’est perdu.',
      'Pour le faire disparaître de la liste, supprimez-le plutôt.',
    ];
  }
  if (doc.type === 'devis') {
    const deposits = depositsOf(doc, family);
    return [
      `Le devis ${doc.number} garde son numéro et passe au statut annulé.`,
      'Il ne pourra plus être accepté, converti en facture ni servir à demander un acompte.',
      ...(deposits.length
        ? [
            `Ses factures d’acompte (${deposits.map((d) => d.number ?? 'brouillon').join(', ')}) ne sont pas annulées avec lui : annulez-les une à une, chacune recevra son avoir.`,
          ]
        : []),
    ];
  }
  const draftCreditNote = creditNoteOf(doc, family);
  const what = doc.type === 'acompte' ? 'La facture d’acompte' : 'La facture';
  return [
    `${what} ${doc.number} garde son numéro et sa place dans la chaîne d’intégrité : une facture émise ne s’efface pas.`,
    `Un avoir de ${formatEuros(doc.total_ttc)} TTC qui l’annule en totalité est créé et finalisé aussitôt, avec le prochain numéro de la série des avoirs.`,
    ...(draftCreditNote && !draftCreditNote.finalized_at ? ['Le brouillon d’avoir en attente sur cette facture est annulé et remplacé par cet avoir complet.'] : []),
    ...(totalPaid > 0
      ? [`Les paiements déjà reçus (${formatEuros(totalPaid)}) restent enregistrés : remboursez le client s’il y a lieu.`]
      : []),
    'L’annulation est définitive.',
  ];
}

// ─── Deposits ───────────────────────────────────────────────────────────────

/** The percentage a deposit defaults to: the quote's deposit request, else its deposit-then-balance plan. */
export function defaultDepositPercentage(doc: {
  deposit_request_percentage: string | null;
  payment_plan_kind: string;
  payment_plan_config: { percentage: string } | { count: number } | null;
}): string {
  const planned = doc.payment_plan_kind === 'deposit_then_balance' && doc.payment_plan_config && 'percentage' in doc.payment_plan_config ? doc.payment_plan_config.percentage : null;
  return doc.deposit_request_percentage ?? planned ?? '';
}

export interface DepositPreview {
  total_ht: number;
  total_tva: number;
  total_ttc: number;
  groups: Array<{ vat_rate: string; amount: number }>;
}

/**
 * The deposit invoice a percentage of the quote gives: each VAT group's base × p, rounded once per group (the
 * server's prorateGroups), then its totals. Null for a percentage that is not one (0 < p ≤ 100, 4 decimals).
 */
export function depositPreview(items: readonly TotalsLine[], percentageText: string): DepositPreview | null {
  const p = percentageText.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,4})?$/.test(p) || new Dec(p).lte(0) || new Dec(p).gt(100)) return null;
  const groups = prorateGroups(computeTotals(items).groups, p);
  const lines: TotalsLine[] = groups.map((g) => ({ kind: 'product', quantity: '1', unit_price: g.amount, vat_rate: g.vat_rate, vat_category: g.vat_category }));
  const totals = computeTotals(lines);
  return {
    total_ht: totals.total_ht,
    total_tva: totals.total_tva,
    total_ttc: totals.total_ttc,
    groups: groups.map((g) => ({ vat_rate: g.vat_rate, amount: g.amount })),
  };
}
