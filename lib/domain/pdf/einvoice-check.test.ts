import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as validationRoute from '@/app/v1/invoices/[id]/validation/route';
import { documents, events, hashChains, numberCounters } from '@/db/schema';
import { type billingContext, line } from '@/lib/domain/documents/testing';
import { einvoiceValidationStats } from '@/lib/domain/facturx';
import { updateOrgIdentity } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { completeSeller } from './testing';

type Api = Awaited<ReturnType<typeof billingContext>>;

const IDENTITY = {
  name: 'Atelier Paraphe',
  legal_name: 'Atelier Paraphe SAS',
  legal_form: 'SAS',
  share_capital_cents: 1_000_000,
  vat_number: 'FR44732829320',
  rcs: 'RCS Paris 732 829 320',
  address: '12 rue de la Paix',
  postal_code: '75002',
  city: 'Paris',
  country: 'FR',
  email: 'facturation@atelier-paraphe.fr',
};
const SIREN = { siren: '732829320', siret: '73282932000074' };

const invoice = (contactId: string) => ({
  type: 'facture',
  contact_id: contactId,
  operation_nature: 'services',
  payment_method: 'bank_transfer',
  items: Array.from({ length: 3 }, (_, i) => line(`Prestation ${i + 1}`, '1', 10_000 * (i + 1), '20')),
});

/**
 * Finalization seals only a document whose Factur-X passes the XSD and the three schematrons (lib/domain/documents
 * finalizeLocked → lib/domain/facturx assertValidEInvoice). The refused case is a seller without SIREN: no rule of the document
 * itself asks for it, the French CTC rules do (BR-FR, the seller's legal registration), so it stays a schematron-only
 * refusal whatever business rules are added at finalization.
 */
describe('validate before sealing', () => {
  let org: TestOrg;
  let api: Api;
  let buyer: { id: string };
  const validation = (id: string, token = api.token) => call(validationRoute.GET, 'GET', `/v1/invoices/${id}/validation`, { token, params: { id } });

  beforeAll(async () => {
    org = await createTestOrg();
    api = await completeSeller(org);
    buyer = await api.contact({ email: 'compta@client-sarl.fr' });
  }, 60_000);

  it('finalizes a document whose e-invoice passes every layer; its validation is empty', async () => {
    const draft = await api.draft(invoice(buyer.id));
    expect((await validation(draft.id)).body).toEqual({ document_id: draft.id, einvoice: true, valid: true, errors: [] });
    const res = await api.finalize(draft.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await validation(draft.id)).body).toMatchObject({ valid: true, errors: [] });
  }, 60_000);

  it('validates a document once: the preview and the check at sealing share the result', async () => {
    const previewed = await api.draft(invoice(buyer.id));
    let before = einvoiceValidationStats();
    expect((await validation(previewed.id)).body).toMatchObject({ valid: true });
    expect((await api.finalize(previewed.id)).status).toBe(200);
    // The preview validated it (the next number, today's dates); the sealed row's CII was byte for byte the same.
    expect(einvoiceValidationStats()).toEqual({ validations: before.validations + 1, reused: before.reused + 1 });

    const direct = await api.draft(invoice(buyer.id));
    before = einvoiceValidationStats();
    expect((await api.finalize(direct.id)).status).toBe(200);
    // Validated once, at sealing.
    expect(einvoiceValidationStats()).toEqual({ validations: before.validations + 1, reused: before.reused });
  }, 60_000);

  it('refuses with 422 einvoice_invalid naming the rules, and writes nothing: still a draft, no number taken', async () => {
    const before = await api.issued(invoice(buyer.id));
    await updateOrgIdentity(org.db, org.org.id, IDENTITY);
    const [chainBefore] = await org.db.select().from(hashChains).where(eq(hashChains.org_id, org.org.id));
    const draft = await api.draft(invoice(buyer.id));

    const shown = await validation(draft.id);
    expect(shown.status).toBe(200);
    expect(shown.body.valid).toBe(false);
    const res = await api.finalize(draft.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'einvoice_invalid', field: null, message: expect.stringContaining('BR-FR-10') });
    expect(res.body.errors).toContainEqual({ rule: 'BR-FR-10', message: expect.stringContaining('SIREN du vendeur'), field: 'BT-30', layer: 'br-fr' });
    for (const e of res.body.errors) expect(Object.keys(e).sort()).toEqual(['field', 'layer', 'message', 'rule']);
    // The preview listed exactly what finalizing refused.
    expect(shown.body.errors).toEqual(res.body.errors);

    const [row] = await org.db.select().from(documents).where(eq(documents.id, draft.id));
    expect(row).toMatchObject({ status: 'draft', number: null, finalized_at: null, content_hash: null, chain_index: null });
    const [chainAfter] = await org.db.select().from(hashChains).where(eq(hashChains.org_id, org.org.id));
    expect(chainAfter!.length).toBe(chainBefore!.length);
    const finalized = await org.db
      .select()
      .from(events)
      .where(and(eq(events.org_id, org.org.id), eq(events.type, 'invoice.finalized')));
    expect(finalized.filter((e) => JSON.stringify(e.payload).includes(draft.id))).toEqual([]);

    // Once the seller is complete again, the same draft takes the very next number: no gap.
    await updateOrgIdentity(org.db, org.org.id, { ...IDENTITY, ...SIREN });
    expect((await validation(draft.id)).body).toMatchObject({ valid: true, errors: [] });
    const sealed = await api.finalize(draft.id);
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(200);
    const next = Number(before.number.slice(-5)) + 1;
    expect(sealed.body.number).toBe(`${before.number.slice(0, -5)}${String(next).padStart(5, '0')}`);
    const [counter] = await org.db
      .select()
      .from(numberCounters)
      .where(and(eq(numberCounters.org_id, org.org.id), eq(numberCounters.type, 'facture')));
    expect(counter!.last_number).toBe(next);
  }, 120_000);

  it('GET /validation: a quote has no e-invoice; 401 without key, 403 without invoice:read, 404 for another org', async () => {
    const quote = await api.draft({ ...invoice(buyer.id), type: 'devis' });
    expect((await validation(quote.id)).body).toEqual({ document_id: quote.id, einvoice: false, valid: true, errors: [] });
    expect((await call(validationRoute.GET, 'GET', `/v1/invoices/${quote.id}/validation`, { params: { id: quote.id } })).status).toBe(401);
    const unscoped = await validation(quote.id, await org.key(['contacts:read']));
    expect([unscoped.status, unscoped.body.code]).toEqual([403, 'forbidden']);
    const other = await createTestOrg();
    expect((await validation(quote.id, await other.key())).status).toBe(404);
  }, 60_000);
});
