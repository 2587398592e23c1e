import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { addDays, todayParis } from '@/lib/platform/dates';
import { billingContext, line, routes } from '@/lib/domain/documents/testing';
import { fakeDns } from '@/lib/platform/outbound/testing';

// pdp_config's host is resolved on a PUT that changes it, and the tests have no DNS.
fakeDns({ 'pa.example.fr': ['93.184.215.14'] });

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

const DEFAULTS = {
  devis_prefix: 'DEV',
  facture_prefix: 'FAC',
  acompte_prefix: 'AC',
  avoir_prefix: 'AV',
  default_validity_days: 30,
  default_vat_exigibility: 'debits',
  default_payment_terms: null,
  default_discount_terms: null,
  footer_mentions: null,
  iban: null,
  bic: null,
  penalty_rate: null,
  recovery_fee: 4000,
  auto_convert_signed_quotes: false,
  auto_finalize_signed_invoices: false,
  auto_send_signed_invoices: false,
  einvoicing_enabled: false,
  ereporting_prefs: null,
  pdp_config: null,
  payment_reminder_offsets: [-3, 1, 7, 15, 30],
  quote_expiry_reminder_offsets: [-7, -2],
};

describe('invoice settings', () => {
  const get = () => call(routes.getSettings, 'GET', '/v1/invoice/settings', { token });
  const put = (body: unknown) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, body });

  it('answers the defaults with org_id and timestamps before anything is saved', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ org_id: org.org.id, ...DEFAULTS, created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/) });
  });

  it('PUT replaces the whole object: omitted prefixes and non-nullable fields take defaults, the others reset', async () => {
    const full = await put({
      devis_prefix: 'Q',
      facture_prefix: 'INV',
      default_validity_days: 15,
      default_vat_exigibility: 'encaissements',
      default_payment_terms: '30 jours',
      footer_mentions: 'SAS au capital de 10 000 €',
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'agrifrpp',
      penalty_rate: '12.5',
      recovery_fee: 5000,
      einvoicing_enabled: true,
      ereporting_prefs: { b2c_sales: true, vat_regime: 'reel_simplifie' },
      pdp_config: { provider: 'afnor', base_url: 'https://pa.example.fr/', client_id: 'paraphe', client_secret: 'secret-0123456789abcd' },
    });
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      devis_prefix: 'Q',
      facture_prefix: 'INV',
      acompte_prefix: 'AC',
      default_validity_days: 15,
      default_vat_exigibility: 'encaissements',
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP',
      penalty_rate: '12.5',
      recovery_fee: 5000,
      ereporting_prefs: { b2c_sales: true, vat_regime: 'reel_simplifie', periodicity: 'monthly', payments_periodicity: 'monthly' },
      pdp_config: { provider: 'afnor', base_url: 'https://pa.example.fr', token_url: null, client_id: 'paraphe', client_secret: '••••abcd' },
    });

    const reset = await put({ default_payment_terms: 'À réception' });
    expect(reset.body).toEqual({
      org_id: org.org.id,
      ...DEFAULTS,
      default_payment_terms: 'À réception',
      created_at: full.body.created_at,
      updated_at: expect.any(String),
    });
    expect((await get()).body).toEqual(reset.body);

    expect((await put({ default_vat_exigibility: null })).body.default_vat_exigibility).toBeNull();
  });

  it('normalizes the auto_* cascade: send implies finalize implies convert', async () => {
    expect((await put({ auto_send_signed_invoices: true })).body).toMatchObject({
      auto_convert_signed_quotes: true,
      auto_finalize_signed_invoices: true,
      auto_send_signed_invoices: true,
    });
    expect((await put({ auto_finalize_signed_invoices: true })).body).toMatchObject({
      auto_convert_signed_quotes: true,
      auto_finalize_signed_invoices: true,
      auto_send_signed_invoices: false,
    });
    expect((await put({ auto_convert_signed_quotes: true })).body).toMatchObject({
      auto_convert_signed_quotes: true,
      auto_finalize_signed_invoices: false,
      auto_send_signed_invoices: false,
    });
  });

  it.each([
    [{ devis_prefix: 'DE V' }, 'devis_prefix'],
    [{ facture_prefix: 'X'.repeat(21) }, 'facture_prefix'],
    [{ avoir_prefix: 'FAC' }, 'avoir_prefix'],
    [{ default_validity_days: 0 }, 'default_validity_days'],
    [{ default_vat_exigibility: 'sometimes' }, 'default_vat_exigibility'],
    [{ iban: 'not an iban' }, 'iban'],
    [{ penalty_rate: 'ten' }, 'penalty_rate'],
    [{ recovery_fee: -1 }, 'recovery_fee'],
    [{ auto_send_signed_invoices: 'yes' }, 'auto_send_signed_invoices'],
    [{ ereporting_prefs: [1] }, 'ereporting_prefs'],
    [{ reminder_days: [1, 2] }, 'reminder_days'],
  ])('refuses %j with 422 on %s', async (body, field) => {
    const res = await put(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
  });

  it('refuses a prefix another series already numbered with (the numbers would collide)', async () => {
    const o = await createTestOrg();
    const b = await billingContext(o);
    const c = await b.contact();
    await b.issued({ type: 'devis', contact_id: c.id, items: [line('A', '1', 100)] });
    const res = await call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: b.token, body: { devis_prefix: 'Q', facture_prefix: 'DEV' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'facture_prefix', message: expect.stringContaining('devis') });
    // Its own series may keep (or take back) its prefix, and an unrelated look-alike is no collision.
    const ok = await call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: b.token, body: { facture_prefix: 'DEV-X' } });
    expect(ok.status).toBe(200);
  });

  it('feeds the defaults of new documents', async () => {
    const o = await createTestOrg();
    const b = await billingContext(o);
    await call(routes.putSettings, 'PUT', '/v1/invoice/settings', {
      token: b.token,
      body: { default_validity_days: 10, default_payment_terms: 'À réception', default_discount_terms: 'Escompte 2 % à 8 jours', default_vat_exigibility: 'encaissements' },
    });
    const c = await b.contact();
    const quote = await b.draft({ type: 'devis', contact_id: c.id });
    expect(quote).toMatchObject({ validity_date: addDays(todayParis(), 10), payment_terms: 'À réception', discount_terms: 'Escompte 2 % à 8 jours', vat_exigibility: 'encaissements' });
    const invoice = await b.draft({ type: 'facture', contact_id: c.id, items: [line('A', '1', 100)] });
    expect(invoice.due_date).toBe(todayParis());
    const sealed = (await b.finalize(invoice.id)).body;
    expect(sealed.seller_snapshot).toMatchObject({ recovery_fee: 4000, penalty_rate: null, iban: null });
  });
});
