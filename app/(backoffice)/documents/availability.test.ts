import { describe, expect, it } from 'vitest';
import {
  type Availability,
  availableActions,
  cancelConsequences,
  closedNotice,
  type DocLike,
  defaultDepositPercentage,
  depositPreview,
  type FamilyMember,
  sendAllowed,
} from './availability';

const today = '2026-11-22';
const doc = (over: Partial<DocLike> = {}): DocLike => ({
  id: 'q',
  type: 'devis',
  status: 'finalized',
  number: 'DEV-2026-00001',
  finalized_at: '2026-11-20T10:00:00.000Z',
  validity_date: '2026-12-20',
  total_ttc: 117_000,
  ...over,
});
const member = (over: Partial<FamilyMember>): FamilyMember => ({
  id: 'x',
  type: 'facture',
  status: 'finalized',
  number: null,
  finalized_at: null,
  converted_from_id: null,
  parent_devis_id: null,
  avoir_for_id: null,
  total_ttc: 0,
  ...over,
});
const offered = (a: Availability) =>
  Object.entries(a)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .sort();

describe('the actions offered', () => {
  it('on a draft: edit, delete, finalize, cancel (and duplicate a quote or an invoice)', () => {
    expect(offered(availableActions(doc({ status: 'draft', number: null, finalized_at: null }), [], today))).toEqual(['cancel', 'duplicate', 'edit', 'finalize', 'remove']);
    expect(offered(availableActions(doc({ type: 'avoir', status: 'draft', number: null, finalized_at: null }), [], today))).toEqual(['cancel', 'edit', 'finalize', 'remove']);
  });

  it('on an open quote: accept, reject, deposit, convert, duplicate, cancel', () => {
    expect(offered(availableActions(doc(), [], today))).toEqual(['accept', 'cancel', 'convert', 'deposit', 'duplicate', 'reject']);
  });

  it('on a quote past its validity: nothing but duplicate and cancel, even before the nightly job', () => {
    expect(offered(availableActions(doc({ validity_date: '2026-11-21' }), [], today))).toEqual(['cancel', 'duplicate']);
    // Its last valid day is still valid.
    expect(availableActions(doc({ validity_date: today }), [], today).accept).toBe(true);
  });

  it('on an accepted quote: deposit and convert until an invoice exists, then nothing to cancel', () => {
    const accepted = doc({ status: 'accepted', validity_date: '2026-11-01' });
    expect(offered(availableActions(accepted, [], today))).toEqual(['cancel', 'convert', 'deposit', 'duplicate']);
    const converted = [member({ converted_from_id: 'q', status: 'draft' })];
    expect(offered(availableActions(accepted, converted, today))).toEqual(['duplicate']);
    // A cancelled conversion frees the quote again.
    expect(availableActions(accepted, [member({ converted_from_id: 'q', status: 'cancelled' })], today).convert).toBe(true);
  });

  it('on an issued invoice: credit note, payments, duplicate, cancel; once credited no second credit note and no cancel', () => {
    const invoice = doc({ id: 'f', type: 'facture', number: 'FAC-2026-00001', validity_date: null });
    expect(offered(availableActions(invoice, [], today))).toEqual(['cancel', 'creditNote', 'duplicate', 'payments', 'recordPayment']);
    const draftCredit = [member({ type: 'avoir', avoir_for_id: 'f', status: 'draft' })];
    expect(offered(availableActions(invoice, draftCredit, today))).toEqual(['cancel', 'duplicate', 'payments', 'recordPayment']);
    const issuedCredit = [member({ type: 'avoir', avoir_for_id: 'f', finalized_at: '2026-11-21T00:00:00.000Z' })];
    expect(offered(availableActions(invoice, issuedCredit, today))).toEqual(['duplicate', 'payments', 'recordPayment']);
  });

  it('on a paid deposit invoice: payments and a credit note; a cancelled one keeps only its payment record', () => {
    const deposit = doc({ id: 'a', type: 'acompte', status: 'paid', number: 'AC-2026-00001', validity_date: null });
    expect(offered(availableActions(deposit, [], today))).toEqual(['creditNote', 'payments', 'recordPayment']);
    expect(offered(availableActions({ ...deposit, status: 'cancelled' }, [], today))).toEqual(['creditNote', 'payments']);
  });

  it('on a finalized credit note: nothing', () => {
    expect(offered(availableActions(doc({ type: 'avoir', number: 'AV-2026-00001' }), [], today))).toEqual([]);
  });
});

describe('a document with no action button', () => {
  const notice = (d: DocLike, family: FamilyMember[] = []) => {
    const canSend = sendAllowed(d, family, today);
    return { canSend, notice: closedNotice(d, availableActions(d, family, today), canSend) };
  };

  it('says it can still be sent when it can (its send card follows), and offers no send when it cannot', () => {
    const credit = doc({ id: 'c', type: 'avoir', number: 'AV-2026-00001', validity_date: null });
    expect(notice(credit)).toEqual({ canSend: true, notice: 'Ce document est clos : il peut seulement être envoyé par e-mail.' });
    const issuedCredit = (of: string) => [member({ type: 'avoir', avoir_for_id: of, finalized_at: '2026-11-21T00:00:00.000Z' })];
    const deposit = doc({ id: 'a', type: 'acompte', status: 'paid', number: 'AC-2026-00001', validity_date: null });
    expect(notice(deposit, issuedCredit('a'))).toEqual({ canSend: true, notice: 'Ce document est clos : il peut seulement être envoyé par e-mail.' });
    // Cancelled: no "Envoyer" under "clos".
    expect(notice({ ...deposit, status: 'cancelled' }, issuedCredit('a'))).toEqual({ canSend: false, notice: 'Aucune action possible : ce document est clos.' });
    expect(notice(doc({ status: 'expired', validity_date: '2026-11-01' }))).toMatchObject({ canSend: false, notice: null }); // duplicate is offered
    expect(notice(doc({ validity_date: '2026-11-21' }))).toMatchObject({ canSend: false }); // past its validity
  });

  it('says nothing when the card has buttons', () => {
    expect(notice(doc())).toEqual({ canSend: true, notice: null });
    expect(notice(doc({ id: 'f', type: 'facture', status: 'paid', number: 'FAC-2026-00001', validity_date: null }))).toEqual({ canSend: true, notice: null });
  });
});

describe('what a cancellation says', () => {
  it('for an issued invoice: its credit note issued at once, the payments kept, a draft credit note replaced', () => {
    const invoice = doc({ id: 'f', type: 'facture', number: 'FAC-2026-00001' });
    const lines = cancelConsequences(invoice, [member({ type: 'avoir', avoir_for_id: 'f', status: 'draft' })], 50_000).join('\n');
    expect(lines).toContain('La facture FAC-2026-00001 garde son numéro');
    expect(lines).toMatch(/Un avoir de 1\s170,00\s€ TTC qui l’annule en totalité est créé et finalisé aussitôt/);
    expect(lines).toContain('Le brouillon d’avoir en attente');
    expect(lines).toMatch(/Les paiements déjà reçus \(500,00\s€\) restent enregistrés/);
  });

  it('for a quote: its deposit invoices are not cancelled with it', () => {
    const lines = cancelConsequences(doc(), [member({ type: 'acompte', parent_devis_id: 'q', number: 'AC-2026-00001' })]);
    expect(lines.join('\n')).toContain('Ses factures d’acompte (AC-2026-00001) ne sont pas annulées');
  });

  it('for a draft: no number is lost', () => {
    expect(cancelConsequences(doc({ finalized_at: null, status: 'draft' }), [])[0]).toContain('aucun numéro n’est perdu');
  });
});

describe('deposits', () => {
  it('default to the quote’s request, else its deposit-then-balance plan', () => {
    expect(defaultDepositPercentage({ deposit_request_percentage: '30', payment_plan_kind: 'none', payment_plan_config: null })).toBe('30');
    expect(defaultDepositPercentage({ deposit_request_percentage: null, payment_plan_kind: 'deposit_then_balance', payment_plan_config: { percentage: '40' } })).toBe('40');
    expect(defaultDepositPercentage({ deposit_request_percentage: null, payment_plan_kind: 'installments', payment_plan_config: { count: 3 } })).toBe('');
  });

  it('preview the share of each VAT group, rounded once per group, as the server prorates it', () => {
    const items = [
      { kind: 'product' as const, quantity: '20', unit_price: 4_550, vat_rate: '10.00', vat_category: 'S' as const },
      { kind: 'product' as const, quantity: '1', unit_price: 15_000, vat_rate: '20.00', vat_category: 'S' as const },
      { kind: 'discount' as const, quantity: '-1', unit_price: 1_000, vat_rate: '10.00', vat_category: 'S' as const },
    ];
    expect(depositPreview(items, '30')).toEqual({
      total_ht: 31_500,
      total_tva: 3_600,
      total_ttc: 35_100,
      groups: [
        { vat_rate: '20.00', amount: 4_500 },
        { vat_rate: '10.00', amount: 27_000 },
      ],
    });
    expect(depositPreview(items, '12,5')?.total_ht).toBe(13_125);
    for (const bad of ['0', '100.5', 'abc', '', '1.23456']) expect(depositPreview(items, bad)).toBeNull();
  });
});
