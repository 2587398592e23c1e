import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg } from '@/lib/testing/fixtures';

/*
 * Decimals (docs/api-reference.md, "Decimals"): a quantity, rate or percentage is sent as a decimal string or as a
 * JSON number (read as its shortest text, exact within the fields' ranges), and always answered as a string.
 */
let api: Awaited<ReturnType<typeof billingContext>>;
let contactId: string;
beforeAll(async () => {
  api = await billingContext(await createTestOrg());
  contactId = (await api.contact()).id;
});

describe('a decimal sent to POST /v1/invoices', () => {
  it('may be a string or a JSON number: the same draft, answered in strings', async () => {
    const asStrings = await api.draft({ type: 'facture', contact_id: contactId, items: [line('Conseil', '2.5', 10_000, '5.5')] });
    const asNumbers = await api.draft({ type: 'facture', contact_id: contactId, items: [{ ...line('Conseil', '0', 10_000), quantity: 2.5, vat_rate: 5.5 }] });
    for (const doc of [asStrings, asNumbers]) {
      expect(doc.items[0]).toMatchObject({ quantity: '2.5', vat_rate: '5.50', total_ht: 25_000 });
      expect(doc).toMatchObject({ total_ht: 25_000, total_tva: 1375, total_ttc: 26_375 });
    }
  });

  it('is refused, naming the field, when it is not a decimal token or has too many decimals', async () => {
    for (const [quantity, message] of [
      ['2,5', 'must be a quantity string such as "2.5"'],
      [true, 'must be a quantity string'],
      [1.23456, 'at most 4 decimals'],
      ['1e3', 'must be a quantity string such as "2.5"'],
    ] as const) {
      const res = await api.create({ type: 'facture', contact_id: contactId, items: [{ ...line('Conseil', '1', 100), quantity }] });
      expect(res.status, String(quantity)).toBe(422);
      expect(res.body, String(quantity)).toMatchObject({ code: 'validation_error', field: 'items.0.quantity' });
      expect(res.body.message, String(quantity)).toContain(message);
    }
  });
});
