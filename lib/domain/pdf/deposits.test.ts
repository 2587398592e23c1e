import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { buildFacturX } from '@/lib/domain/facturx';
import { loadRenderModel } from './model';

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
