import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('Réglages → Facturation: the E-reporting card keeps the VAT regime and what is reported; GET /v1/invoices/ereporting answers the year', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings/invoicing');
  const regime = page.getByLabel('Régime de TVA');
  await expect(regime).toHaveValue('');
  await regime.selectOption('franchise');
  await page.getByLabel('Transmettre les ventes aux particuliers (B2C)').check();
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Réglages de facturation enregistrés.')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Régime de TVA')).toHaveValue('franchise');
  await expect(page.getByLabel('Transmettre les ventes aux particuliers (B2C)')).toBeChecked();
  await expect(page.getByLabel('Transmettre les encaissements des prestations de services (TVA sur les encaissements)')).not.toBeChecked();
  const settings = await (await page.request.get('/v1/invoice/settings')).json();
  expect(settings.ereporting_prefs).toEqual({
    b2c_sales: true,
    international_sales: false,
    payment_data: false,
    vat_regime: 'franchise',
    periodicity: 'bimonthly',
    payments_periodicity: 'bimonthly',
  });

  const data = await page.request.get('/v1/invoices/ereporting?from=2026-01-01&to=2026-12-31');
  expect(data.status()).toBe(200);
  expect(Object.keys(await data.json())).toEqual(['from', 'to', 'currency', 'prefs', 'b2c', 'international', 'payments']);
  expect((await page.request.get('/v1/invoices/ereporting?from=2026-01-01&to=2027-01-01')).status()).toBe(422);

  // Back to none: nothing reported.
  await page.getByLabel('Régime de TVA').selectOption('');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Réglages de facturation enregistrés.')).toBeVisible();
  expect((await (await page.request.get('/v1/invoice/settings')).json()).ereporting_prefs).toBeNull();
});
