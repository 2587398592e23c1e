import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES } from '@/db/schema/billing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { type ActionDoc, type ActionFacts, allowedActions, DOCUMENT_ACTIONS, FACTS_READ, factsFromFamily, type LinkedDoc } from './allowed-actions';
import { todayParis } from '@/lib/platform/dates';
import { documentFlow } from './document-flow';
import { billingContext, documentRow, line } from './testing';
import { loadActionFacts } from './transitions';

const today = '2026-11-22';
const doc = (over: Partial<ActionDoc> = {}): ActionDoc => ({
  id: 'd',
  type: 'facture',
  status: 'finalized',
  number: 'FAC-2026-00001',
  finalized_at: '2026-11-20T10:00:00.000Z',
  validity_date: null,
  ...over,
});
const none: ActionFacts = { today, conversion: null, quoteConversion: null, creditNote: null };
const linked = (over: Partial<LinkedDoc> = {}): LinkedDoc => ({ id: 'l', number: null, finalized_at: null, ...over });

describe('allowedActions', () => {
  it('answers the API’s refusals, code and message', () => {
    const invoice = allowedActions(doc(), none);
    expect(invoice.edit).toEqual({ code: 'document_finalized', message: 'Document FAC-2026-00001 is finalized: issue a credit note instead.' });
    expect(allowedActions(doc({ status: 'cancelled', finalized_at: null, number: null }), none).remove).toEqual({
      code: 'document_finalized',
      message: 'This document is cancelled: it can no longer change.',
    });
    expect(invoice.finalize).toEqual({ code: 'already_finalized', message: 'Document FAC-2026-00001 is already finalized.' });
    expect(allowedActions(doc({ status: 'cancelled', finalized_at: null }), none).finalize).toEqual({
      code: 'invalid_transition',
      message: 'A cancelled document cannot be finalized.',
    });
    expect(allowedActions(doc({ type: 'acompte', status: 'draft', finalized_at: null }), { ...none, quoteConversion: linked({ number: 'FAC-2026-00002' }) }).finalize).toEqual({
      code: 'not_convertible',
      message: 'The quote was converted into invoice FAC-2026-00002: this deposit can no longer be issued.',
    });
    expect(invoice.accept).toEqual({ code: 'invalid_transition', message: 'Only a quote can be accepted; this is a facture.' });
    const quote = (over: Partial<ActionDoc>) => doc({ type: 'devis', number: 'DEV-2026-00001', validity_date: '2026-12-01', ...over });
    expect(allowedActions(quote({ status: 'draft', finalized_at: null }), none).reject).toEqual({ code: 'not_finalized', message: 'A draft quote cannot be rejected: finalize it first.' });
    expect(allowedActions(quote({ status: 'accepted' }), none).reject).toEqual({ code: 'invalid_transition', message: 'This quote is accepted: it cannot be rejected.' });
    expect(allowedActions(quote({ validity_date: '2026-11-21' }), none).accept).toEqual({
      code: 'invalid_transition',
      message: 'This quote expired after 2026-11-21: it cannot be accepted.',
    });
    const notConvertible = (d: ActionDoc, facts = none) => allowedActions(d, facts).convert?.message;
    expect([
      notConvertible(doc()),
      notConvertible(quote({ status: 'draft', finalized_at: null })),
      notConvertible(quote({ status: 'rejected' })),
      notConvertible(quote({ validity_date: '2026-11-21' })),
      notConvertible(quote({ status: 'accepted' }), { ...none, conversion: linked({ id: 'inv' }) }),
    ]).toEqual([
      'This document cannot be converted: it is not a quote (facture).',
      'This document cannot be converted: the quote is a draft; finalize it first.',
      'This document cannot be converted: the quote is rejected.',
      'This document cannot be converted: the quote expired after 2026-11-21.',
      'This document cannot be converted: the quote was already converted into invoice inv.',
    ]);
    expect(allowedActions(quote({}), none).deposit).toBeNull();
    expect(allowedActions(quote({}), none).creditNote).toEqual({ code: 'not_creditable', message: 'Only an invoice or a deposit invoice can be credited, not a devis.' });
    expect(allowedActions(doc({ status: 'draft', finalized_at: null }), none).creditNote?.code).toBe('not_finalized');
    expect(allowedActions(doc({ type: 'acompte', number: 'AC-2026-00001' }), { ...none, creditNote: linked({ id: 'c1' }) }).creditNote).toEqual({
      code: 'credit_note_exists',
      message: "la facture d’acompte AC-2026-00001 already has a credit note (draft c1).",
    });
    expect(allowedActions(doc(), { ...none, creditNote: linked({ number: 'AV-2026-00001', finalized_at: today }) }).cancel).toEqual({
      code: 'credit_note_exists',
      message: 'la facture FAC-2026-00001 already has a credit note (AV-2026-00001).',
    });
    expect([
      allowedActions(doc({ status: 'paid' }), none).cancel?.message,
      allowedActions(doc({ type: 'avoir' }), none).cancel?.message,
      allowedActions(quote({ status: 'accepted' }), { ...none, conversion: linked({ number: 'FAC-2026-00003' }) }).cancel?.message,
    ]).toEqual([
      'This document cannot be cancelled: this document is paid.',
      'This document cannot be cancelled: a finalized credit note cannot be cancelled.',
      'This document cannot be cancelled: this quote was accepted and converted into invoice FAC-2026-00003.',
    ]);
    expect(allowedActions(doc({ type: 'acompte' }), none).duplicate).toEqual({ code: 'not_duplicable', message: 'A acompte derives from another document and cannot be duplicated.' });
    expect([
      allowedActions(doc({ type: 'avoir' }), none).recordPayment?.message,
      allowedActions(doc({ status: 'draft', finalized_at: null }), none).recordPayment?.message,
      allowedActions(doc({ status: 'cancelled' }), none).recordPayment?.message,
    ]).toEqual([
      'No payment can be recorded on this document: a avoir is not paid.',
      'No payment can be recorded on this document: it is a draft.',
      'No payment can be recorded on this document: it is cancelled.',
    ]);
  });

  it('gives each action the same verdict from only the facts FACTS_READ says it reads (what the API looks up)', () => {
    const factSets: ActionFacts[] = [];
    for (const conversion of [null, linked({ id: 'c' })])
      for (const quoteConversion of [null, linked({ id: 'q' })])
        for (const creditNote of [null, linked({ id: 'n' }), linked({ id: 'n', number: 'AV-1', finalized_at: today })])
          factSets.push({ today, conversion, quoteConversion, creditNote });
    let checked = 0;
    for (const type of DOCUMENT_TYPES)
      for (const status of DOCUMENT_STATUSES)
        for (const finalized_at of [null, '2026-11-20T10:00:00.000Z'])
          for (const validity_date of [null, '2026-11-21', today]) {
            const d = doc({ type, status, finalized_at, validity_date });
            for (const facts of factSets) {
              const full = allowedActions(d, facts);
              for (const action of DOCUMENT_ACTIONS) {
                const only: ActionFacts = { today, conversion: null, quoteConversion: null, creditNote: null };
                for (const fact of FACTS_READ[action]) (only as unknown as Record<string, unknown>)[fact] = facts[fact];
                expect(allowedActions(d, only)[action], `${action} on ${type} ${status}`).toEqual(full[action]);
                checked++;
              }
            }
          }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('the facts, from the database (API) and from the flow (back-office)', () => {
  let org: TestOrg;
  let api: Awaited<ReturnType<typeof billingContext>>;
  beforeAll(async () => {
    org = await createTestOrg();
    api = await billingContext(org);
  });

  it('give the same verdicts on every document of a family, for every action', async () => {
    const contact = await api.contact();
    const items = [line('Audit', '1', 100_000, '20')];
    const quote = await api.issued({ type: 'devis', contact_id: contact.id, items });
    const deposit = api.expectStatus(await api.deposit(quote.id, { percentage: '20' }), 201, 'deposit');
    api.expectStatus(await api.finalize(deposit.id), 200, 'finalize deposit');
    const cancelledDeposit = api.expectStatus(await api.deposit(quote.id, { percentage: '10' }), 201, 'deposit');
    api.expectStatus(await api.finalize(cancelledDeposit.id), 200, 'finalize deposit');
    api.expectStatus(await api.cancel(cancelledDeposit.id), 200, 'cancel deposit');
    const lateDeposit = api.expectStatus(await api.deposit(quote.id, { percentage: '10' }), 201, 'draft deposit');
    api.expectStatus(await api.accept(quote.id), 200, 'accept');
    const invoice = api.expectStatus(await api.convert(quote.id), 201, 'convert');
    api.expectStatus(await api.finalize(invoice.id), 200, 'finalize invoice');
    api.expectStatus(await api.creditNote(invoice.id, { credit_reason_code: 'other', items: [line('Geste', '1', 1_000, '20')] }), 201, 'draft credit note');
    // A standalone invoice and a quote that stays open.
    const standalone = await api.issued({ type: 'facture', contact_id: contact.id, items });
    const open = await api.issued({ type: 'devis', contact_id: contact.id, items });

    const day = todayParis();
    let compared = 0;
    for (const root of [quote.id, standalone.id, open.id]) {
      const flow = await documentFlow(org.db, org.org.id, root);
      for (const member of flow.documents) {
        const row = (await documentRow(org.db, member.id))!;
        const fromFlow = allowedActions(row, factsFromFamily(row, flow.documents, day));
        for (const action of DOCUMENT_ACTIONS) {
          const fromDb = allowedActions(row, await org.db.transaction((tx) => loadActionFacts(tx, org.org.id, row, action, day)));
          expect(fromFlow[action], `${action} on ${row.type} ${row.number ?? row.status}`).toEqual(fromDb[action]);
          compared++;
        }
      }
    }
    // quote, 3 deposits, the cancelled one's credit note, the invoice and its draft credit note; standalone; open.
    expect(compared).toBe(9 * DOCUMENT_ACTIONS.length);
    // The draft deposit of the converted quote may no longer be finalized, and the page does not offer it.
    const late = (await documentRow(org.db, lateDeposit.id))!;
    const flow = await documentFlow(org.db, org.org.id, late.id);
    expect(allowedActions(late, factsFromFamily(late, flow.documents, day)).finalize?.code).toBe('not_convertible');
    expect((await api.finalize(late.id)).body.code).toBe('not_convertible');
  });
});
