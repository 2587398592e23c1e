import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { buildFacturX, paymentTerms } from '@/lib/domain/facturx';
import { missingValidators } from '@/lib/domain/facturx/testing';
import { loadRenderModel } from './model';
import { renderDocument } from './render-document';

const run = promisify(execFile);
const hasPoppler = !missingValidators().some((m) => m === 'pdfdetach' || m === 'pdfinfo');

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let contactId: string;

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  contactId = (await api.contact({ email: 'compta@client.fr' })).id;
});

/** The deposit invoices a CII names as preceding invoices (BG-3, BT-25). */
const referencedNumbers = (xml: string) => [...xml.matchAll(/<ram:InvoiceReferencedDocument>\s*<ram:IssuerAssignedID>([^<]+)</g)].map((m) => m[1]);

describe('the deposits a final invoice prints and references', () => {
  it('are the ones its conversion deducted: not a deposit cancelled (or fully credited) before, and a partly credited one net', async () => {
    // 1 000 € at 20 % and 100 € at 5.5 %.
    const quote = await api.issued({
      type: 'devis',
      contact_id: contactId,
      operation_nature: 'services',
      items: [line('Mobilier', '1', 100_000, '20'), line('Documentation', '1', 10_000, '5.5')],
    });
    const deposit = async (percentage: string) => {
      const draft = api.expectStatus(await api.deposit(quote.id, { percentage }), 201, 'deposit');
      return api.expectStatus(await api.finalize(draft.id), 200, 'finalize deposit');
    };
    // Cancelled before the conversion: its cancellation issued its credit note, it is not deducted.
    const cancelled = await deposit('30');
    api.expectStatus(await api.cancel(cancelled.id), 200, 'cancel deposit');
    // Kept in full.
    const kept = await deposit('20');
    // Partly credited: 50 € of its 100 € at 20 %.
    const partly = await deposit('10');
    const partial = api.expectStatus(
      await api.creditNote(partly.id, { credit_reason_code: 'commercial_gesture', items: [line('Geste', '1', 5_000, '20')] }),
      201,
      'partial credit note',
    );
    api.expectStatus(await api.finalize(partial.id), 200, 'finalize partial credit note');
    // Fully credited (not cancelled: a credit note leaves the status alone), so nothing is left to deduct.
    const credited = await deposit('10');
    const full = api.expectStatus(await api.creditNote(credited.id, { credit_reason_code: 'billing_error' }), 201, 'full credit note');
    api.expectStatus(await api.finalize(full.id), 200, 'finalize full credit note');

    const draft = api.expectStatus(await api.convert(quote.id), 201, 'convert');
    const invoice = api.expectStatus(await api.finalize(draft.id), 200, 'finalize invoice');
    // The conversion deducted 200 € + 20 € (kept) and 50 € + 10 € (partly, net): 1 100 − 280 = 820 € HT.
    expect(invoice.total_ht).toBe(82_000);

    const model = await loadRenderModel(org.db, org.org.id, invoice.id);
    expect(model.deposits.map((d) => [d.number, d.issue_date, d.total_ht, d.total_ttc])).toEqual([
      // 20 000 + 4 000 VAT, 2 000 + 110 VAT.
      [kept.number, kept.issue_date, 22_000, 26_110],
      // 5 000 + 1 000 VAT, 1 000 + 55 VAT.
      [partly.number, partly.issue_date, 6_000, 7_055],
    ]);

    const xml = buildFacturX(model);
    expect(referencedNumbers(xml)).toEqual([kept.number, partly.number]);
    // Nor anywhere else (the invoice's own FAC-… number ends like the first deposit's AC-…).
    expect(xml).not.toMatch(new RegExp(`[ >]${cancelled.number}[ <]`));
    expect(xml).not.toMatch(new RegExp(`[ >]${credited.number}[ <]`));
  });
});

describe('the payment terms of a deposit invoice (issue 34)', () => {
  const quoteWith = async (contact: string, payment_terms: string | null) =>
    api.issued({ type: 'devis', contact_id: contact, operation_nature: 'services', payment_terms, items: [line('Développement', '10', 60_000, '20')] });

  it('are stored as printed: « Payable à réception », not the quote’s « 30 jours », from the draft to the Factur-X', async () => {
    const quote = await quoteWith(contactId, '30 jours');
    expect(quote.payment_terms).toBe('30 jours');
    const draft = api.expectStatus(await api.deposit(quote.id, { percentage: '30' }), 201, 'deposit');
    expect([draft.payment_terms, draft.due_date]).toEqual(['Payable à réception', draft.issue_date]);
    expect((await api.get(draft.id)).body.payment_terms).toBe('Payable à réception');
    const deposit = api.expectStatus(await api.finalize(draft.id), 200, 'finalize deposit');
    const read = (await api.get(deposit.id)).body;
    expect([read.payment_terms, read.due_date]).toEqual(['Payable à réception', read.issue_date]);
    // What the PDF prints and BT-20 states is the stored text, decided by the one function.
    const model = await loadRenderModel(org.db, org.org.id, deposit.id);
    expect(paymentTerms(model)).toBe(read.payment_terms);
    expect(buildFacturX(model)).toContain('<ram:Description>Payable à réception</ram:Description>');
    if (!hasPoppler) return;
    // And the printed page says it, not the quote's terms.
    const dir = await mkdtemp(path.join(tmpdir(), 'paraphe-deposit-terms-'));
    try {
      const file = path.join(dir, 'deposit.pdf');
      await writeFile(file, (await renderDocument(model)).pdf);
      const text = (await run('pdftotext', [file, '-'])).stdout.replace(/\s+/g, ' ');
      expect(text).toContain('Payable à réception');
      expect(text).not.toContain('30 jours');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('in the contact’s language, and when the quote states none; terms that state no delay are kept', async () => {
    const english = (await api.contact({ email: 'billing@client.example', preferred_language: 'en' })).id;
    const en = api.expectStatus(await api.deposit((await quoteWith(english, '30 jours')).id, { percentage: '30' }), 201, 'deposit');
    expect(en.payment_terms).toBe('Payable upon receipt');
    expect(paymentTerms(await loadRenderModel(org.db, org.org.id, en.id))).toBe('Payable upon receipt');
    const none = api.expectStatus(await api.deposit((await quoteWith(contactId, null)).id, { percentage: '30' }), 201, 'deposit');
    expect(none.payment_terms).toBe('Payable à réception');
    const plan = api.expectStatus(await api.deposit((await quoteWith(contactId, 'Selon échéancier convenu')).id, { percentage: '30' }), 201, 'deposit');
    expect(plan.payment_terms).toBe('Selon échéancier convenu');
  });
});
