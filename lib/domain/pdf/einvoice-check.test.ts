import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as validationRoute from '@/app/v1/invoices/[id]/validation/route';
import { documents, events, hashChains, numberCounters } from '@/db/schema';
import { type DocumentRow, loadContactRow, loadDocument, loadItems, type SealReads } from '@/lib/domain/documents';
import { loadSettings } from '@/lib/domain/invoice-settings';
import { type billingContext, line } from '@/lib/domain/documents/testing';
import { getOrg, updateOrgIdentity } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { validateBeforeSealing } from './einvoice-check';
import { einvoiceValidationStats } from './facturx/einvoice-validation';
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
 * seal checks → lib/domain/pdf validateBeforeSealing). The refused case is a seller without SIREN: no rule of the document
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

  it('validates a document once: the preview, the check before the chain lock and the one under it share the result', async () => {
    const previewed = await api.draft(invoice(buyer.id));
    let before = einvoiceValidationStats();
    expect((await validation(previewed.id)).body).toMatchObject({ valid: true });
    expect((await api.finalize(previewed.id)).status).toBe(200);
    // The preview validated it; finalizing found that result twice (before the lock, under it).
    expect(einvoiceValidationStats()).toEqual({ validations: before.validations + 1, reused: before.reused + 2 });

    const direct = await api.draft(invoice(buyer.id));
    before = einvoiceValidationStats();
    expect((await api.finalize(direct.id)).status).toBe(200);
    // Validated before the lock; the sealed row's CII was byte for byte the predicted one (same number, same dates).
    expect(einvoiceValidationStats()).toEqual({ validations: before.validations + 1, reused: before.reused + 1 });
  }, 60_000);

  it('stops validating before the lock for an org whose predictions mostly miss (finalizations at once), and probes again', async () => {
    const other = await createTestOrg();
    const otherApi = await completeSeller(other);
    const client = await otherApi.contact({ email: 'compta@client-sarl.fr' });
    const drafts = [];
    // Each its own lines: the CII does not carry the document's id, and two equal CIIs would share one validation.
    for (let i = 0; i < 16; i++) {
      const draft = await otherApi.draft({ ...invoice(client.id), items: [line(`Abonnement ${i + 1}`, '1', 10_000 + i, '20')] });
      drafts.push(await loadDocument(other.db, other.org.id, draft.id));
    }
    const validations = () => einvoiceValidationStats().validations;
    // What finalization reads before its seal checks, and hands them.
    const readsOf = async (draft: DocumentRow): Promise<SealReads> => ({
      items: await loadItems(other.db, other.org.id, draft.id),
      org: await getOrg(other.db, other.org.id),
      settings: await loadSettings(other.db, other.org.id),
      contact: (await loadContactRow(other.db, other.org.id, draft.contact_id)) ?? undefined,
    });
    // Five finalizations whose predicted number another one took meanwhile: the sealed CII is not the predicted one.
    for (const [i, draft] of drafts.slice(0, 5).entries()) {
      const before = validations();
      const read = await readsOf(draft);
      await other.db.transaction((tx) => validateBeforeSealing.prepare!(tx, other.org.id, draft, read));
      await other.db.transaction((tx) => validateBeforeSealing.check(tx, other.org.id, { ...draft, number: `F-2026-0990${i}` }, read));
      expect(validations()).toBe(before + 2);
    }
    // Now the prediction is skipped (the CII is validated once, under the lock) — but one finalization in ten probes.
    const predicted: boolean[] = [];
    for (const draft of drafts.slice(5, 15)) {
      const before = validations();
      const read = await readsOf(draft);
      await other.db.transaction((tx) => validateBeforeSealing.prepare!(tx, other.org.id, draft, read));
      predicted.push(validations() > before);
    }
    expect(predicted).toEqual([false, false, false, false, false, false, false, false, false, true]);
    // Another org's single finalizations still validate before the lock, once.
    const direct = await api.draft(invoice(buyer.id));
    const before = einvoiceValidationStats();
    expect((await api.finalize(direct.id)).status).toBe(200);
    expect(einvoiceValidationStats()).toEqual({ validations: before.validations + 1, reused: before.reused + 1 });
  }, 120_000);

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
