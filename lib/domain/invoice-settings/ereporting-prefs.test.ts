import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceSettings } from '@/db/schema';
import { routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

const put = (ereporting_prefs: unknown) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, body: { ereporting_prefs } });

describe('ereporting_prefs on PUT /v1/invoice/settings', () => {
  it.each([
    ['reel_normal_mensuel', 'decade', 'monthly'],
    ['reel_normal_trimestriel', 'monthly', 'monthly'],
    ['reel_simplifie', 'monthly', 'monthly'],
    ['franchise', 'bimonthly', 'bimonthly'],
  ])('%s: periodicities %s (transactions) and %s (payments), derived and kept', async (vat_regime, periodicity, payments_periodicity) => {
    const res = await put({ b2c_sales: true, vat_regime });
    expect(res.status).toBe(200);
    const expected = { b2c_sales: true, vat_regime, periodicity, payments_periodicity };
    expect(res.body.ereporting_prefs).toEqual(expected);
    expect((await call(routes.getSettings, 'GET', '/v1/invoice/settings', { token })).body.ereporting_prefs).toEqual(expected);
    // Sending the answer back is accepted as is.
    expect((await put(expected)).status).toBe(200);
  });

  it('null (or omitted) turns e-reporting off', async () => {
    await put({ vat_regime: 'franchise' });
    expect((await put(null)).body.ereporting_prefs).toBeNull();
    await put({ vat_regime: 'franchise' });
    expect((await call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, body: {} })).body.ereporting_prefs).toBeNull();
  });

  it.each([
    [[1], 'ereporting_prefs', 'must be an object'],
    [{ vat_regime: 'micro' }, 'ereporting_prefs.vat_regime', 'must be reel_normal_mensuel'],
    [{ vat_regime: 'franchise', periodicity: 'decade' }, 'ereporting_prefs.periodicity', 'must be bimonthly for the VAT regime franchise'],
    [{ vat_regime: 'reel_normal_mensuel', payments_periodicity: 'decade' }, 'ereporting_prefs.payments_periodicity', 'must be monthly'],
    [{ vat_regime: 'franchise', periodicity: 'weekly' }, 'ereporting_prefs.periodicity', 'must be decade, monthly or bimonthly'],
    [{ vat_regime: 'franchise', b2c_sales: 'yes' }, 'ereporting_prefs.b2c_sales', 'must be a boolean'],
    [{ b2c_sales: 1 }, 'ereporting_prefs.b2c_sales', 'must be a boolean'],
  ])('refuses %j with 422 naming %s', async (prefs, field, message) => {
    const res = await put(prefs);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'validation_error', field });
    expect(res.body.message).toContain(message);
  });

  it('the spec types it as JSON: an object without the documented keys, or with keys of its own, reads back as sent', async () => {
    for (const prefs of [{}, { enabled: true, frequency: 'monthly', channels: ['b2c'] }, { vat_regime: 'franchise', note: 'x' }]) {
      const res = await put(prefs);
      expect(res.status).toBe(200);
      const expected = prefs.vat_regime ? { ...prefs, periodicity: 'bimonthly', payments_periodicity: 'bimonthly' } : prefs;
      expect(res.body.ereporting_prefs).toEqual(expected);
      expect((await call(routes.getSettings, 'GET', '/v1/invoice/settings', { token })).body.ereporting_prefs).toEqual(expected);
    }
  });

  it('a stored row that is not an object reads as null', async () => {
    const other = await createTestOrg();
    const otherToken = await other.key();
    await call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: otherToken, body: {} });
    await other.db.update(invoiceSettings).set({ ereporting_prefs: [1, 2] }).where(eq(invoiceSettings.org_id, other.org.id));
    const res = await call(routes.getSettings, 'GET', '/v1/invoice/settings', { token: otherToken });
    expect(res.body.ereporting_prefs).toBeNull();
  });
});
