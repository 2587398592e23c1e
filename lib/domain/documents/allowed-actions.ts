import type { DocumentStatus, DocumentType } from '@/db/schema/billing';
import { theDocument } from '@/lib/platform/i18n';

/*
 * The state machine of DESIGN §4 as one pure function, with no database and no clock: what may be done to a
 * document now, and for each refused action the API's 409 (code and message). The API's services check their
 * action with it (lib/domain/documents/transitions.ts: assertAllowed loads the facts from the database) and the
 * back-office offers the actions it allows (app/(backoffice)/documents/availability.ts, facts from the flow).
 *
 *   draft → finalized → sent → paid (invoices and deposits; payments move sent ↔ paid)
 *   quotes: finalized | sent → accepted | rejected | expired
 *   any non-terminal status → cancelled
 * Terminal: paid, cancelled, rejected, expired, an accepted quote once converted, and a finalized credit note
 * (it is itself the correction; a numbered document is never erased).
 */

export const OPEN_QUOTE_STATUSES: DocumentStatus[] = ['finalized', 'sent'];
export const PAYABLE_STATUSES: DocumentStatus[] = ['finalized', 'sent', 'paid'];
const TERMINAL_STATUSES: DocumentStatus[] = ['paid', 'cancelled', 'rejected', 'expired'];
const CONVERTIBLE_STATUSES: DocumentStatus[] = ['finalized', 'sent', 'accepted'];

export const DOCUMENT_ACTIONS = [
  'edit',
  'remove',
  'finalize',
  'duplicate',
  'accept',
  'reject',
  'deposit',
  'convert',
  'creditNote',
  'cancel',
  'recordPayment',
  'send',
] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

/** What the rules read of the document itself: a stored row (dates as Date) or the API's document (ISO strings). */
export interface ActionDoc {
  id: string;
  type: DocumentType;
  status: DocumentStatus;
  number: string | null;
  finalized_at: Date | string | null;
  validity_date: string | null;
}

/** Another document of the family, as the rules need it. */
export interface LinkedDoc {
  id: string;
  number: string | null;
  finalized_at: Date | string | null;
}

/** What the rules need beyond the document. */
export interface ActionFacts {
  /** Today in Europe/Paris (YYYY-MM-DD): a quote past its validity date counts as expired at once. */
  today: string;
  /** A quote: the invoice converted from it, unless that invoice is cancelled. */
  conversion: LinkedDoc | null;
  /** A deposit invoice: the invoice converted from its quote, unless cancelled (a draft deposit may then no longer be issued). */
  quoteConversion: LinkedDoc | null;
  /** An invoice or deposit invoice: its credit note, draft or finalized, unless cancelled. */
  creditNote: LinkedDoc | null;
}

/** The facts each action reads: the API looks up only those (lib/domain/documents/transitions.ts). */
export const FACTS_READ: Record<DocumentAction, ReadonlyArray<Exclude<keyof ActionFacts, 'today'>>> = {
  edit: [],
  remove: [],
  finalize: ['quoteConversion'],
  duplicate: [],
  accept: [],
  reject: [],
  deposit: ['conversion'],
  convert: ['conversion'],
  creditNote: ['creditNote'],
  cancel: ['conversion', 'creditNote'],
  recordPayment: [],
  send: [],
};

/** A refused action: the API answers 409 with this code and message. */
export interface Refusal {
  code: string;
  message: string;
}

/** For each action: null when allowed, else why not. */
export type ActionVerdicts = Record<DocumentAction, Refusal | null>;

const refuse = (code: string, message: string): Refusal => ({ code, message });
const billed = (type: DocumentType) => type === 'facture' || type === 'acompte';
const nameOf = (d: LinkedDoc) => d.number ?? d.id;

/** "la facture FAC-…" / "la facture d’acompte AC-…", as the credit-note messages name an invoice. */
export const invoiceLabel = (doc: Pick<ActionDoc, 'type' | 'number'>) =>
  `${theDocument(doc.type)} ${doc.number}`;

const creditNoteExists = (doc: ActionDoc, creditNote: LinkedDoc) =>
  refuse('credit_note_exists', `${invoiceLabel(doc)} already has a credit note (${creditNote.number ?? `draft ${creditNote.id}`}).`);

/** A quote past its validity date is expired even before the daily job records it. */
export const pastValidity = (doc: Pick<ActionDoc, 'type' | 'status' | 'validity_date'>, today: string) =>
  doc.type === 'devis' && doc.validity_date !== null && doc.validity_date < today && OPEN_QUOTE_STATUSES.includes(doc.status);

/** Only a draft changes or disappears; anything else is numbered or closed. */
function draftOnly(doc: ActionDoc): Refusal | null {
  if (doc.status === 'draft') return null;
  return refuse(
    'document_finalized',
    doc.finalized_at ? `Document ${doc.number} is finalized: issue a credit note instead.` : `This document is ${doc.status}: it can no longer change.`,
  );
}

function finalizeRefusal(doc: ActionDoc, facts: ActionFacts): Refusal | null {
  if (doc.finalized_at) return refuse('already_finalized', `Document ${doc.number} is already finalized.`);
  if (doc.status !== 'draft') return refuse('invalid_transition', `A ${doc.status} document cannot be finalized.`);
  // Once the quote is converted, its invoice deducts only the deposits issued before: a later one would bill twice.
  if (doc.type === 'acompte' && facts.quoteConversion) {
    return refuse('not_convertible', `The quote was converted into invoice ${nameOf(facts.quoteConversion)}: this deposit can no longer be issued.`);
  }
  return null;
}

/** The client's answer to a quote: finalized or sent → accepted | rejected, within its validity. */
function decisionRefusal(doc: ActionDoc, facts: ActionFacts, verb: 'accepted' | 'rejected'): Refusal | null {
  if (doc.type !== 'devis') return refuse('invalid_transition', `Only a quote can be ${verb}; this is a ${doc.type}.`);
  if (doc.status === 'draft') return refuse('not_finalized', `A draft quote cannot be ${verb}: finalize it first.`);
  if (!OPEN_QUOTE_STATUSES.includes(doc.status)) return refuse('invalid_transition', `This quote is ${doc.status}: it cannot be ${verb}.`);
  if (pastValidity(doc, facts.today)) return refuse('invalid_transition', `This quote expired after ${doc.validity_date}: it cannot be ${verb}.`);
  return null;
}

/**
 * A quote may be converted (into the invoice, or a share of it into a deposit invoice) when it is finalized,
 * sent or accepted, within its validity, and not converted already.
 */
function conversionRefusal(doc: ActionDoc, facts: ActionFacts): Refusal | null {
  const why = (() => {
    if (doc.type !== 'devis') return `it is not a quote (${doc.type})`;
    if (doc.status === 'draft') return 'the quote is a draft; finalize it first';
    if (!CONVERTIBLE_STATUSES.includes(doc.status)) return `the quote is ${doc.status}`;
    // Once accepted, the validity date has done its job: only an open quote can lapse.
    if (pastValidity(doc, facts.today)) return `the quote expired after ${doc.validity_date}`;
    if (facts.conversion) return `the quote was already converted into invoice ${nameOf(facts.conversion)}`;
    return null;
  })();
  return why ? refuse('not_convertible', `This document cannot be converted: ${why}.`) : null;
}

/** A finalized invoice or deposit invoice gets at most one live credit note. */
function creditRefusal(doc: ActionDoc, facts: ActionFacts): Refusal | null {
  if (!billed(doc.type)) return refuse('not_creditable', `Only an invoice or a deposit invoice can be credited, not a ${doc.type}.`);
  if (!doc.finalized_at) return refuse('not_finalized', 'A draft is changed or deleted, not credited: finalize it first.');
  return facts.creditNote ? creditNoteExists(doc, facts.creditNote) : null;
}

/**
 * Any non-terminal document may be cancelled. A finalized invoice or deposit invoice is cancelled by its full
 * credit note, issued then: not when a finalized one exists already (a draft one is replaced).
 */
function cancelRefusal(doc: ActionDoc, facts: ActionFacts): Refusal | null {
  const why = (() => {
    if (TERMINAL_STATUSES.includes(doc.status)) return `this document is ${doc.status}`;
    if (doc.type === 'avoir' && doc.finalized_at) return 'a finalized credit note cannot be cancelled';
    if (doc.type === 'devis' && doc.status === 'accepted' && facts.conversion) {
      return `this quote was accepted and converted into invoice ${nameOf(facts.conversion)}`;
    }
    return null;
  })();
  if (why) return refuse('not_cancellable', `This document cannot be cancelled: ${why}.`);
  return billed(doc.type) && doc.finalized_at && facts.creditNote?.finalized_at ? creditNoteExists(doc, facts.creditNote) : null;
}

/** Payments are recorded on finalized invoices and deposit invoices that are not cancelled. */
function paymentRefusal(doc: ActionDoc): Refusal | null {
  if (billed(doc.type) && doc.finalized_at && PAYABLE_STATUSES.includes(doc.status)) return null;
  const why = doc.type === 'devis' || doc.type === 'avoir' ? `a ${doc.type} is not paid` : !doc.finalized_at ? 'it is a draft' : `it is ${doc.status}`;
  return refuse('not_payable', `No payment can be recorded on this document: ${why}.`);
}

/**
 * A document is e-mailed once issued and while it is open: a paid invoice or an accepted quote may be sent again; a
 * cancelled, rejected or expired one (or a quote past its validity) is closed.
 */
function sendRefusal(doc: ActionDoc, facts: ActionFacts): Refusal | null {
  if (doc.status === 'draft') return refuse('not_finalized', 'A draft cannot be sent: finalize it first (it gets its number and its PDF).');
  const lapsed = pastValidity(doc, facts.today);
  if (doc.status === 'cancelled' || doc.status === 'rejected' || doc.status === 'expired' || lapsed) {
    const why = lapsed ? `expired after ${doc.validity_date}` : doc.status;
    const instead = billed(doc.type) ? ' (send its credit note instead)' : '';
    return refuse('invalid_transition', `This document is ${why}: it is not sent any more${instead}.`);
  }
  return null;
}

/** What may be done to `doc` now: for each action, null (allowed) or the refusal the API answers. */
export function allowedActions(doc: ActionDoc, facts: ActionFacts): ActionVerdicts {
  const conversion = conversionRefusal(doc, facts);
  return {
    edit: draftOnly(doc),
    remove: draftOnly(doc),
    finalize: finalizeRefusal(doc, facts),
    duplicate:
      doc.type === 'devis' || doc.type === 'facture' ? null : refuse('not_duplicable', `A ${doc.type} derives from another document and cannot be duplicated.`),
    accept: decisionRefusal(doc, facts, 'accepted'),
    reject: decisionRefusal(doc, facts, 'rejected'),
    deposit: conversion,
    convert: conversion,
    creditNote: creditRefusal(doc, facts),
    cancel: cancelRefusal(doc, facts),
    recordPayment: paymentRefusal(doc),
    send: sendRefusal(doc, facts),
  };
}

/** A member of a document's family as GET /v1/invoices/{id}/flow lists it. */
export interface FamilyMember extends LinkedDoc {
  type: DocumentType;
  status: DocumentStatus;
  converted_from_id: string | null;
  parent_devis_id: string | null;
  avoir_for_id: string | null;
}

/** The invoice a quote was converted into (a cancelled one frees the quote). */
export const conversionIn = <T extends FamilyMember>(quoteId: string, family: readonly T[]): T | null =>
  family.find((d) => d.type === 'facture' && d.converted_from_id === quoteId && d.status !== 'cancelled') ?? null;

/** The live credit note of an invoice, draft or finalized. */
export const creditNoteIn = <T extends FamilyMember>(invoiceId: string, family: readonly T[]): T | null =>
  family.find((d) => d.type === 'avoir' && d.avoir_for_id === invoiceId && d.status !== 'cancelled') ?? null;

/** The facts of `doc` read from its family (the flow), as the back-office has it. */
export function factsFromFamily(doc: ActionDoc & { parent_devis_id?: string | null }, family: readonly FamilyMember[], today: string): ActionFacts {
  const parentId = doc.parent_devis_id ?? family.find((d) => d.id === doc.id)?.parent_devis_id ?? null;
  return {
    today,
    conversion: doc.type === 'devis' ? conversionIn(doc.id, family) : null,
    quoteConversion: doc.type === 'acompte' && parentId ? conversionIn(parentId, family) : null,
    creditNote: billed(doc.type) ? creditNoteIn(doc.id, family) : null,
  };
}
