import type { DocumentStatus, DocumentType } from '@/db/schema/billing';
import { allowedActions, type FamilyMember as BillingFamilyMember, conversionIn, creditNoteIn, factsFromFamily } from '@/lib/domain/documents/client';
import { formatMoney } from '@/lib/platform/format';
import { computeTotals, Dec, prorateGroups, type TotalsLine } from '@/lib/platform/money';

/*
 * Which actions the document page offers, and what it says before a cancellation. The offer is the API's own
 * state machine (lib/domain/documents/allowed-actions.ts) over the facts the page has (the document's flow), so the page
 * shows only the buttons that can succeed; the services stay the authority and any refusal they answer (409,
 * 422) is shown as is.
 */

export interface DocLike {
  id: string;
  type: DocumentType;
  status: DocumentStatus;
  number: string | null;
  finalized_at: string | null;
  validity_date: string | null;
  total_ttc: number;
  /** A deposit invoice's quote (else read from the family). */
  parent_devis_id?: string | null;
}

/** A member of the document's flow (GET /v1/invoices/{id}/flow). */
export interface FamilyMember extends BillingFamilyMember {
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

/** The invoice a quote was converted into (a cancelled one frees the quote). */
export const conversionOf = (doc: DocLike, family: readonly FamilyMember[]) => conversionIn(doc.id, family);

/** The live credit note of an invoice, draft or finalized. */
export const creditNoteOf = (doc: DocLike, family: readonly FamilyMember[]) => creditNoteIn(doc.id, family);

/** The deposit invoices of a quote that are not cancelled. */
export const depositsOf = (doc: DocLike, family: readonly FamilyMember[]) =>
  family.filter((d) => d.type === 'acompte' && d.parent_devis_id === doc.id && d.status !== 'cancelled');

export function availableActions(doc: DocLike, family: readonly FamilyMember[], today: string): Availability {
  // Sending has its own panel (components/sending/send-document.tsx), which asks the same state machine.
  const { send: _send, ...verdicts } = allowedActions(doc, factsFromFamily(doc, family, today));
  const allowed = Object.fromEntries(Object.entries(verdicts).map(([action, refusal]) => [action, refusal === null])) as Record<keyof typeof verdicts, boolean>;
  return { ...allowed, payments: (doc.type === 'facture' || doc.type === 'acompte') && doc.finalized_at !== null };
}

/** Whether the document can be e-mailed now: the send card (components/sending/send-document.tsx) is shown only then. */
export const sendAllowed = (doc: DocLike, family: readonly FamilyMember[], today: string): boolean =>
  allowedActions(doc, factsFromFamily(doc, family, today)).send === null;

/**
 * What the actions card says when it offers no button, else null. A closed document that can still be sent (a paid
 * invoice, a credit note) says so — its send card follows — instead of "no action possible" above an "Envoyer" button.
 */
export function closedNotice(doc: Pick<DocLike, 'status'>, can: Availability, canSend: boolean): string | null {
  if (Object.entries(can).some(([action, allowed]) => allowed && action !== 'payments' && action !== 'recordPayment')) return null;
  if (doc.status === 'draft') return 'Aucune action possible : ce document est un brouillon.';
  return canSend ? 'Ce document est clos : il peut seulement être envoyé par e-mail.' : 'Aucune action possible : ce document est clos.';
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
    `Un avoir de ${formatMoney(doc.total_ttc)} TTC qui l’annule en totalité est créé et finalisé aussitôt, avec le prochain numéro de la série des avoirs.`,
    ...(draftCreditNote && !draftCreditNote.finalized_at ? ['Le brouillon d’avoir en attente sur cette facture est annulé et remplacé par cet avoir complet.'] : []),
    ...(totalPaid > 0
      ? [`Les paiements déjà reçus (${formatMoney(totalPaid)}) restent enregistrés : remboursez le client s’il y a lieu.`]
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
