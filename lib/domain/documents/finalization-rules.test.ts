import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceSettings } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { call } from '@/lib/testing/http';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { groupExemption } from '@/lib/platform/money';
import { latestB2bDueDate } from './finalization-rules';
import { billingContext, line, routes } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let frBusiness: { id: string };
let frNoSiret: { id: string };
let consumer: { id: string };
let german: { id: string };
let germanNoVat: { id: string };
let american: { id: string };
const year = todayParis().slice(0, 4);

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  frBusiness = await api.contact({ vat_intra: 'FR40552032534' });
  frNoSiret = await api.contact({ company: 'Sans Siret SAS', siret: null, vat_intra: 'FR40552032534' });
  consumer = await api.contact({ type: 'particulier', company: null, siret: null, first_name: 'Camille', last_name: 'Martin', email: 'camille@example.fr' });
  german = await api.contact({ company: 'Kunde GmbH', email: 'ap@kunde.example', siret: null, country: 'DE', vat_intra: 'DE123456789', city: 'Berlin', postal_code: '10115' });
  germanNoVat = await api.contact({ company: 'Ohne GmbH', email: 'ap@ohne.example', siret: null, country: 'DE', city: 'Berlin', postal_code: '10115' });
  american = await api.contact({ company: 'Customer Inc.', email: 'ap@customer.example', siret: null, country: 'US', city: 'New York', postal_code: '10001' });
});

const invoice = (contact: { id: string }, extra: Record<string, unknown> = {}) => ({
  type: 'facture',
  contact_id: contact.id,
  operation_nature: 'services',
  items: [line('Conseil', '1', 10000, '20')],
  ...extra,
});

/** Creates the draft (always accepted: drafts are permissive), then finalizes it; answers the finalization. */
async function finalizeNew(body: Record<string, unknown>) {
  const draft = await api.draft(body);
  return { draft, res: await api.finalize(draft.id) };
}

async function expectRefused(body: Record<string, unknown>, field: string, fragment?: string) {
  const { draft, res } = await finalizeNew(body);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toMatchObject({ code: 'validation_error', field });
  if (fragment) expect(res.body.message).toContain(fragment);
  // Still a draft, unnumbered.
  expect((await api.get(draft.id)).body).toMatchObject({ status: 'draft', number: null, finalized_at: null });
  return res.body;
}

async function expectFinalized(body: Record<string, unknown>) {
  const { res } = await finalizeNew(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('finalization rules (issue 12)', () => {
  it('defect 2: refuses an invoice without a nature of the operation; the draft stays and numbering stays gapless', async () => {
    await expectRefused(invoice(frBusiness, { operation_nature: null }), 'operation_nature', 'biens, services or mixte');
    const first = await expectFinalized(invoice(frBusiness, { operation_nature: 'biens' }));
    expect(first.number).toBe(`FAC-${year}-00001`);
    await expectRefused(invoice(frBusiness, { operation_nature: null }), 'operation_nature');
    expect((await expectFinalized(invoice(frBusiness))).number).toBe(`FAC-${year}-00002`);
    // A quote is not an invoice: no nature required.
    const quote = await api.draft({ type: 'devis', contact_id: frBusiness.id, operation_nature: null, items: [line('Étude', '1', 5000)] });
    expect((await api.finalize(quote.id)).status).toBe(200);
  });

  it('defect 3: refuses a French business buyer without SIREN/SIRET, not a consumer nor a foreign business', async () => {
    await expectRefused(invoice(frNoSiret), 'contact.siret', 'SIREN');
    await expectFinalized(invoice(consumer));
    await expectFinalized(invoice(american, { items: [line('Export', '1', 10000, '0', { vat_category: 'G' })] }));
    const sealed = await expectFinalized(invoice(frBusiness));
    expect(sealed.client_snapshot).toMatchObject({ siret: '55203253400646', siren: '552032534' });
  });

  it('defect 6: settings below the legal floors are refused on PUT, and at finalization when stored earlier', async () => {
    const put = (body: unknown) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: api.token, body });
    expect((await put({ recovery_fee: 3999 })).body).toMatchObject({ code: 'validation_error', field: 'recovery_fee' });
    expect((await put({ recovery_fee: 0 })).status).toBe(422);
    const low = await put({ penalty_rate: '1' });
    expect(low.body).toMatchObject({ code: 'validation_error', field: 'penalty_rate' });
    expect(low.body.message).toContain('3 × the legal interest rate');
    // 2026: legal rate 2.62 % → at least 7.86 %.
    if (todayParis() >= '2026-01-01') {
      expect((await put({ penalty_rate: '7.85' })).status).toBe(422);
      expect((await put({ penalty_rate: '7.86' })).status).toBe(200);
    }
    expect((await put({ penalty_rate: '12', recovery_fee: 4000 })).status).toBe(200);
    expect((await put({ penalty_rate: null })).status).toBe(200); // the legal default, ECB + 10 points

    // Older rows below the floors: a business invoice is refused naming the setting; a consumer's prints neither mention.
    await org.db.update(invoiceSettings).set({ recovery_fee: 0, penalty_rate: '1' }).where(and(eq(invoiceSettings.org_id, org.org.id)));
    const body = await expectRefused(invoice(frBusiness), 'settings.recovery_fee');
    expect(body.message).toContain('settings.penalty_rate');
    await expectFinalized(invoice(consumer));
    await org.db.update(invoiceSettings).set({ recovery_fee: 4000, penalty_rate: null }).where(eq(invoiceSettings.org_id, org.org.id));
  });

  it('defect 7: S needs a French rate; 8 % is refused, 5.5 and the overseas 8.5 pass', async () => {
    await expectRefused(invoice(frBusiness, { items: [line('A', '1', 1000, '20'), line('B', '1', 1000, '8')] }), 'items.1.vat_rate', 'not a French VAT rate');
    await expectFinalized(invoice(frBusiness, { items: [line('A', '1', 1000, '5.5'), line('B', '1', 1000, '8.5'), line('C', '1', 1000, '2.1')] }));
  });

  it('defect 7: AE needs a business buyer with a VAT number', async () => {
    const ae = [line('Sous-traitance', '1', 10000, '0', { vat_category: 'AE' })];
    await expectRefused(invoice(consumer, { items: ae }), 'contact.type', 'reverse charge');
    await expectRefused(invoice(germanNoVat, { items: ae }), 'contact.vat_intra');
    await expectFinalized(invoice(german, { items: ae }));
    await expectFinalized(invoice(frBusiness, { items: [line('Sous-traitance BTP', '1', 10000, '0', { vat_category: 'AE', vat_exemption_reason: 'VATEX-FR-AE' })] }));
  });

  it('defect 7: K needs a business buyer in another member state with its VAT number', async () => {
    const k = [line('Machine', '1', 10000, '0', { vat_category: 'K' })];
    await expectRefused(invoice(frBusiness, { operation_nature: 'biens', items: k }), 'contact.country', 'another EU member state');
    await expectRefused(invoice(consumer, { operation_nature: 'biens', items: k }), 'contact.type');
    await expectRefused(invoice(american, { operation_nature: 'biens', items: k }), 'contact.country');
    await expectRefused(invoice(germanNoVat, { operation_nature: 'biens', items: k }), 'contact.vat_intra');
    await expectFinalized(invoice(german, { operation_nature: 'biens', items: k }));
  });

  it('defect 7: G needs a buyer outside the EU', async () => {
    const g = [line('Export', '1', 10000, '0', { vat_category: 'G' })];
    await expectRefused(invoice(frBusiness, { operation_nature: 'biens', items: g }), 'contact.country', 'outside the EU');
    await expectRefused(invoice(german, { operation_nature: 'biens', items: g }), 'contact.country');
    await expectFinalized(invoice(american, { operation_nature: 'biens', items: g }));
  });

  it('defect 5: a 0 % line without a category (E without a reason) is refused; E takes a reason, stored and encoded', async () => {
    await expectRefused(invoice(consumer, { items: [line('Formation', '1', 10000, '0')] }), 'items.0.vat_category', 'a 0 % line needs its VAT category');
    await expectRefused(invoice(consumer, { items: [line('Formation', '1', 10000, '0', { vat_category: 'E' })] }), 'items.0.vat_category');
    const sealed = await expectFinalized(
      invoice(consumer, { items: [line('Formation professionnelle', '1', 10000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-CGI261-4' })] }),
    );
    expect(sealed.items[0]).toMatchObject({ vat_category: 'E', vat_exemption_reason: 'VATEX-FR-CGI261-4' });
    // Printed and encoded: BT-120 text and BT-121 code of the group (lib/domain/pdf/vat.ts exemptionOf reads groupExemption).
    expect(groupExemption(sealed.items, 'E')).toMatchObject({
      code: 'VATEX-FR-CGI261-4',
      text: { fr: 'Exonération de TVA, art. 261, 4 du CGI', en: 'VAT exempt, article 261, 4 of the French Tax Code (CGI)' },
    });
    expect(groupExemption([{ vat_category: 'E', vat_exemption_reason: 'VATEX-FR-FRANCHISE' }], 'E')?.text.fr).toBe('TVA non applicable, art. 293 B du CGI');
    expect(groupExemption([], 'K')?.code).toBe('VATEX-EU-IC');
    expect(groupExemption([], 'S')).toBeNull();
  });

  it('defect 5: the franchise excludes any VAT; one exemption reason per document; reasons match their category', async () => {
    const franchise = line('Prestation', '1', 10000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-FRANCHISE' });
    await expectRefused(invoice(frBusiness, { items: [franchise, line('Autre', '1', 1000, '20')] }), 'items.1.vat_rate', 'franchise en base');
    await expectFinalized(invoice(frBusiness, { items: [franchise, line('Déplacement', '1', 1000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-FRANCHISE' })] }));
    // Not subject to VAT (O) stands alone (BR-O-11).
    await expectRefused(invoice(frBusiness, { items: [franchise, line('Débours', '1', 1000, '0', { vat_category: 'O' })] }), 'items.0.vat_category', 'BR-O-11');
    await expectRefused(
      invoice(consumer, { items: [franchise, line('Cours', '1', 1000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-CGI261-4' })] }),
      'items.1.vat_exemption_reason',
      'BR-E-01',
    );
    await expectRefused(invoice(consumer, { items: [line('A', '1', 1000, '20', { vat_exemption_reason: 'VATEX-FR-CGI261-4' })] }), 'items.0.vat_exemption_reason');
    await expectRefused(invoice(german, { items: [line('A', '1', 1000, '0', { vat_category: 'AE', vat_exemption_reason: 'VATEX-EU-IC' })] }), 'items.0.vat_exemption_reason');
    // An unknown code is refused on input (a shape error, not a rule).
    const bad = await api.create(invoice(consumer, { items: [line('A', '1', 1000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-XX' })] }));
    expect(bad.body).toMatchObject({ code: 'validation_error', field: 'items.0.vat_exemption_reason' });
  });

  it('defect 5: a deposit and a credit note keep the exemption reason of the lines they come from', async () => {
    const items = [line('Formation', '2', 10000, '0', { vat_category: 'E', vat_exemption_reason: 'VATEX-FR-CGI261-4' })];
    const quote = await api.issued({ type: 'devis', contact_id: consumer.id, items });
    const deposit = api.expectStatus(await api.deposit(quote.id, { percentage: '30' }), 201, 'deposit');
    expect(deposit.items[0]).toMatchObject({ vat_category: 'E', vat_exemption_reason: 'VATEX-FR-CGI261-4' });
    expect((await api.finalize(deposit.id)).status).toBe(200);
    const sealed = await expectFinalized(invoice(consumer, { items }));
    const partial = api.expectStatus(
      await api.creditNote(sealed.id, { credit_reason_code: 'return', items: [line('Formation', '1', 10000, '0', { vat_category: 'E' })] }),
      201,
      'credit note',
    );
    expect(partial.items[0]).toMatchObject({ vat_exemption_reason: 'VATEX-FR-CGI261-4' });
  });

  it('defect 10: B2B payment terms beyond 60 days or 45 days end of month are refused; a consumer may get longer', async () => {
    const today = todayParis();
    await expectRefused(invoice(frBusiness, { payment_terms: '120 jours' }), 'due_date', 'L441-10');
    const both = await expectRefused(invoice(frBusiness, { payment_terms: '120 jours', due_date: addDays(today, 30) }), 'payment_terms');
    expect(both.field).toBe('payment_terms');
    await expectRefused(invoice(frBusiness, { payment_terms: null, due_date: addDays(today, 90) }), 'due_date');
    await expectFinalized(invoice(frBusiness, { payment_terms: '60 jours' }));
    await expectFinalized(invoice(frBusiness, { payment_terms: '45 jours fin de mois' }));
    await expectFinalized(invoice(consumer, { payment_terms: '120 jours' }));
    expect(latestB2bDueDate('2026-01-31')).toBe('2026-04-01'); // 60 days (45 days end of month: 2026-03-31 at most)
    expect(latestB2bDueDate('2026-01-10')).toBe('2026-03-17'); // end of January + 45 days
  });

  it('returns every refusal at once', async () => {
    const body = await expectRefused(
      invoice(frNoSiret, { operation_nature: null, payment_terms: '90 jours', items: [line('A', '1', 1000, '8'), line('B', '1', 1000, '0')] }),
      'operation_nature',
    );
    for (const field of ['operation_nature:', 'contact.siret:', 'due_date:', 'payment_terms:', 'items.0.vat_rate:', 'items.1.vat_category:']) {
      expect(body.message).toContain(field);
    }
  });

  it('drafts stay permissive: every refused combination above was stored as a draft, and can be patched into shape', async () => {
    const draft = await api.draft(invoice(frNoSiret, { operation_nature: null, items: [line('A', '1', 1000, '8')] }));
    expect(draft).toMatchObject({ status: 'draft', operation_nature: null });
    api.expectStatus(await api.patch(draft.id, { contact_id: frBusiness.id, operation_nature: 'mixte', items: [line('A', '1', 1000, '10')] }), 200, 'patch');
    expect((await api.finalize(draft.id)).status).toBe(200);
  });
});
